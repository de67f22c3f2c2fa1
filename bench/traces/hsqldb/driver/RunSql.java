import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

/**
 * Runs the statements of an SQL script (one per line) against an in-memory
 * HSQLDB database through JDBC, and prints every result set. The driver is
 * found as JDBC applications find it: DriverManager loads it through
 * ServiceLoader from the jar's META-INF/services/java.sql.Driver.
 *
 *   java -cp hsqldb.jar:driver RunSql script.sql
 */
public class RunSql {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:hsqldb:mem:bench", "SA", "");
             Statement s = c.createStatement()) {
            for (String line : Files.readAllLines(Path.of(args[0]))) {
                String sql = line.strip();
                if (sql.isEmpty() || sql.startsWith("--")) continue;
                if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
                if (s.execute(sql)) {
                    try (ResultSet r = s.getResultSet()) {
                        ResultSetMetaData m = r.getMetaData();
                        while (r.next()) {
                            StringBuilder row = new StringBuilder();
                            for (int i = 1; i <= m.getColumnCount(); i++) {
                                if (i > 1) row.append(" | ");
                                row.append(r.getObject(i));
                            }
                            System.out.println(row);
                        }
                    }
                } else {
                    System.out.println(s.getUpdateCount() + " row(s)");
                }
            }
            s.execute("SHUTDOWN");
        }
    }
}
