package pi.host.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code settings} table: string keys and values. */
public final class SettingsStore {

    private final Database db;

    public SettingsStore(Database db) {
        this.db = db;
    }

    public Map<String, String> all() throws StorageException {
        return db.read(c -> {
            Map<String, String> out = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT key, value FROM settings ORDER BY key");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
            return out;
        });
    }

    /** Writes every entry in one transaction; a null value removes the key. */
    public void putAll(Map<String, String> values) throws StorageException {
        db.write(c -> {
            try (PreparedStatement put = c.prepareStatement(
                    "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
                    PreparedStatement remove = c.prepareStatement("DELETE FROM settings WHERE key = ?")) {
                for (Map.Entry<String, String> e : values.entrySet()) {
                    if (e.getValue() == null) {
                        remove.setString(1, e.getKey());
                        remove.executeUpdate();
                    } else {
                        put.setString(1, e.getKey());
                        put.setString(2, e.getValue());
                        put.executeUpdate();
                    }
                }
            }
            return null;
        });
    }
}
