import { engineSuite } from "./suite.js";
import { openSqlite } from "./engines.js";

engineSuite("SQLite (sql.js)", openSqlite, 10);
