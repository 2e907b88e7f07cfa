import { engineSuite } from "./suite.js";
import { openPostgres } from "./engines.js";

// PostgreSQL itself (Debian's binaries, as CI installs them): the same suite as on PGlite.
engineSuite("PostgreSQL (Debian)", openPostgres, 100);
