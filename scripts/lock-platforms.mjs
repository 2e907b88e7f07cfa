// Adds to package-lock.json the platform-specific optional packages that the registry mirror of this
// workplace does not serve (npm then omits them from the lock and `npm ci` refuses the lock). Each gets
// the `os`/`cpu`/`libc` its name says, so npm skips it on every other platform, as it would anyway.
//   node scripts/lock-platforms.mjs   (after `npm install` changes the lock)
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32", "netbsd", "sunos", "aix"];
const CPU = { "arm-eabi": "arm", arm: "arm", arm64: "arm64", x64: "x64", ia32: "ia32", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x" };

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  if (!os) return undefined;
  const rest = parts.slice(parts.indexOf(os) + 1).join("-");
  const cpuKey = Object.keys(CPU).sort((a, b) => b.length - a.length).find((k) => rest.startsWith(k));
  if (!cpuKey) return undefined;
  const libc = /musl/.test(rest) ? "musl" : os === "linux" && /gnu/.test(rest) ? "glibc" : undefined;
  return { os: [os], cpu: [CPU[cpuKey]], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `${path ? `${path}/` : ""}node_modules/${dep}`.replace(/^node_modules\/(.*)\/node_modules\//, "node_modules/$1/node_modules/");
    const hoisted = `node_modules/${dep}`;
    if (lock.packages[key] || lock.packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[hoisted] = { version, dev: entry.dev || undefined, optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries`);
