import type { AgentState } from "../state.js";
import { joinHostPort } from "../identity.js";
import { redactSecrets } from "./redact.js";

/**
 * The running configuration in the scheduler's shape (keys in its sorted order), with every secret
 * replaced by `<redacted>`. Values come from the options; the ports are the ones actually listened on
 * (RPC and gossip share the HTTP listener here). Integrations this server does not have are shown
 * disabled.
 */
export function buildConfig(state: AgentState): Record<string, unknown> {
  const { ctx, id } = state;
  const o = ctx.options;
  const at = id.listening();
  const host = at?.address ?? o.bind;
  const port = at?.port ?? o.port;
  const advertise = joinHostPort(host, port);
  const initialSchedulers = state.schedulers?.cpuCount ?? 0;

  const config: Record<string, unknown> = {
    ACL: {
      Enabled: ctx.acl.enabled,
      PolicyTTL: "30s",
      ReplicationToken: "",
      TokenTTL: "30s",
      TokensFile: o.aclTokensFile ?? "",
    },
    Addresses: { Gossip: o.bind, HTTP: o.bind, RPC: o.bind },
    AdvertiseAddrs: { Gossip: advertise, HTTP: advertise, RPC: advertise },
    BindAddr: o.bind,
    Client: {
      AllocDir: "",
      ChrootEnv: {},
      ClientMaxPort: 14512,
      ClientMinPort: 14000,
      DisableRemoteExec: false,
      Enabled: id.isClient,
      GCDiskUsageThreshold: 80,
      GCInodeUsageThreshold: 70,
      GCInterval: 60_000_000_000,
      MaxKillTimeout: "30s",
      Meta: {},
      NetworkInterface: "",
      NetworkSpeed: 0,
      NodeClass: "",
      Options: {},
      Reserved: { CPU: 0, DiskMB: 0, MemoryMB: 0, ParsedReservedPorts: null, ReservedPorts: "" },
      Servers: state.servers === undefined ? null : state.servers.list(),
      StateDir: "",
    },
    DataDir: o.dataDir ?? "",
    Datacenter: o.datacenter,
    DevMode: false,
    DisableAnonymousSignature: true,
    DisableUpdateCheck: true,
    EnableDebug: o.enableDebug,
    EnableSyslog: false,
    Files: o.configFile === undefined ? null : [o.configFile],
    HTTPAPIResponseHeaders: {},
    LeaveOnInt: false,
    LeaveOnTerm: false,
    LogLevel: (o.logLevel ?? "info").toUpperCase(),
    NodeName: o.nodeName,
    Ports: { Gossip: port, HTTP: port, RPC: port },
    Region: o.region,
    Revision: "",
    SecretsManagers: [{ Address: "", Enabled: false, Name: "default", Token: "" }],
    Server: {
      BootstrapExpect: id.isServer ? 1 : 0,
      DataDir: o.dataDir ?? "",
      Enabled: id.isServer,
      EnabledSchedulers: null,
      HeartbeatGrace: "10s",
      NodeGCThreshold: "24h",
      NumSchedulers: initialSchedulers,
      ProtocolVersion: 0,
      RejoinAfterLeave: false,
      RetryInterval: "30s",
      RetryJoin: [],
      RetryMaxAttempts: 0,
      StartJoin: [],
    },
    ServiceDiscovery: [{ Address: "", Enabled: false, Name: "default", Token: "" }],
    SyslogFacility: "LOCAL0",
    TLSConfig: { CAFile: "", CertFile: "", EnableHTTP: false, EnableRPC: false, KeyFile: "", VerifyServerHostname: false },
    Telemetry: {
      APIToken: "",
      CollectionInterval: "1s",
      DisableHostname: false,
      PublishAllocationMetrics: false,
      PublishNodeMetrics: false,
    },
    Version: ctx.version.Version,
    VersionPrerelease: ctx.version.VersionPrerelease,
  };
  return redactSecrets(config);
}
