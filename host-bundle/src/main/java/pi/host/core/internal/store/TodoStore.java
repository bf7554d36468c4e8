package pi.host.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** The {@code todos} table: one ordered checklist per session, replaced as a whole. */
public final class TodoStore {

    /** One checklist entry. */
    public record Todo(String content, String status) {
    }

    private final Database db;

    public TodoStore(Database db) {
        this.db = db;
    }

    /** Replaces the session's checklist in one transaction. */
    public void replace(String sessionId, List<Todo> todos) throws StorageException {
        db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM todos WHERE session_id = ?");
                    PreparedStatement insert = c.prepareStatement(
                            "INSERT INTO todos (session_id, position, content, status) VALUES (?, ?, ?, ?)")) {
                delete.setString(1, sessionId);
                delete.executeUpdate();
                for (int i = 0; i < todos.size(); i++) {
                    insert.setString(1, sessionId);
                    insert.setInt(2, i);
                    insert.setString(3, todos.get(i).content());
                    insert.setString(4, todos.get(i).status());
                    insert.executeUpdate();
                }
            }
            return null;
        });
    }

    public List<Todo> list(String sessionId) throws StorageException {
        return db.read(c -> {
            List<Todo> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT content, status FROM todos WHERE session_id = ? ORDER BY position")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Todo(rs.getString(1), rs.getString(2)));
                    }
                }
            }
            return out;
        });
    }
}
