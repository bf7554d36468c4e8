package pi.host.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Set;
import java.util.TreeSet;

/** The {@code plugin_grants} table: which capabilities the user granted to which plugin id. */
public final class PluginGrantStore {

    private final Database db;

    public PluginGrantStore(Database db) {
        this.db = db;
    }

    /** The capabilities granted to {@code pluginId}, sorted. */
    public Set<String> capabilities(String pluginId) throws StorageException {
        return db.read(c -> {
            Set<String> out = new TreeSet<>();
            PreparedStatement ps = db.prepared(c, "SELECT capability FROM plugin_grants WHERE plugin_id = ?");
            ps.setString(1, pluginId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    /** Records a grant; true when it is new (granting twice keeps the first time). */
    public boolean grant(String pluginId, String capability, long at) throws StorageException {
        return db.write(c -> {
            PreparedStatement ps = db.prepared(c,
                    "INSERT INTO plugin_grants (plugin_id, capability, granted_at) VALUES (?, ?, ?)"
                            + " ON CONFLICT(plugin_id, capability) DO NOTHING");
            ps.setString(1, pluginId);
            ps.setString(2, capability);
            ps.setLong(3, at);
            return ps.executeUpdate() == 1;
        });
    }

    /** Removes a grant; true when there was one. */
    public boolean revoke(String pluginId, String capability) throws StorageException {
        return db.write(c -> {
            PreparedStatement ps = db.prepared(c,
                    "DELETE FROM plugin_grants WHERE plugin_id = ? AND capability = ?");
            ps.setString(1, pluginId);
            ps.setString(2, capability);
            return ps.executeUpdate() == 1;
        });
    }
}
