import { TokenAcl } from "../../src/acl.js";
import { DEFAULT_OPTIONS, newLogEvents, type AclToken, type ServerContext, type ServerOptions } from "../../src/context.js";

/**
 * The context of an app built in the test process: free ports, errors-only logging, the given ACL
 * tokens (none: ACLs off), and `options` over those defaults.
 */
export function testContext(tokens?: AclToken[], options: Partial<ServerOptions> = {}): ServerContext {
  return {
    options: { ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", ...options },
    acl: new TokenAcl(tokens, options.apiHeaders),
    version: { Version: "0.0.0-test", VersionPrerelease: "" },
    startedAt: new Date(),
    logEvents: newLogEvents(),
  };
}
