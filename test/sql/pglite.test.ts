import { engineSuite } from "./suite.js";
import { openPglite } from "./engines.js";

engineSuite("PostgreSQL (PGlite)", openPglite, 100);
