/**
 * Typed records: how the reference sees the server's Go structs. A schema is a `Type` tree; data
 * stays plain JavaScript (decoded JSON) and is read through it: an absent field is its type's zero
 * value, a name that is not a field is an error, integers compare exactly (also as `bigint`).
 */

/** The types a field can have, named after Go's kinds. */
export type Type =
  /**
   * A string; `values`, when given, are the values the field takes (the scheduler's constants, or a
   * schema file's `enum`). They only inform the `unknown-value` warning: any text still compiles and
   * compares, as in the reference.
   */
  | { readonly kind: "string"; readonly values?: readonly string[] }
  | { readonly kind: "int" }
  | { readonly kind: "uint" }
  | { readonly kind: "float" }
  | { readonly kind: "bool" }
  /** A slice: `null`/absent is the nil slice. */
  | { readonly kind: "list"; readonly elem: Type }
  /** A map with string keys: `null`/absent is the nil map. */
  | { readonly kind: "map"; readonly value: Type }
  /** A struct: absent is the zero record (every field its zero value). */
  | { readonly kind: "record"; readonly name: string; readonly fields: Readonly<Record<string, Type>> }
  /** A pointer: `null`/absent is nil. */
  | { readonly kind: "pointer"; readonly target: Type }
  /** `interface{}`: plain JSON, typed by its value (every number a float). */
  | { readonly kind: "any" };

export type RecordType = Extract<Type, { kind: "record" }>;

/** A schema: the record type of the data a filter runs against. */
export type Schema = RecordType;

/** A small builder for schemas of your own record types. */
export const t = {
  string: { kind: "string" } as Type,
  /** A string that takes one of `values` (non-empty, distinct): `t.enumString(["pending", "running", "dead"])`. */
  enumString: (values: readonly string[]): Type => {
    if (values.length === 0) throw new RangeError("t.enumString: a string with known values needs at least one value");
    if (new Set(values).size !== values.length) throw new RangeError(`t.enumString: a value is listed twice in ${JSON.stringify(values)}`);
    return { kind: "string", values: Object.freeze([...values]) };
  },
  int: { kind: "int" } as Type,
  uint: { kind: "uint" } as Type,
  float: { kind: "float" } as Type,
  bool: { kind: "bool" } as Type,
  any: { kind: "any" } as Type,
  list: (elem: Type): Type => ({ kind: "list", elem }),
  map: (value: Type): Type => ({ kind: "map", value }),
  pointer: (target: Type): Type => ({ kind: "pointer", target }),
  record: (name: string, fields: Record<string, Type>): RecordType => ({ kind: "record", name, fields: Object.freeze({ ...fields }) }),
} as const;

/** Each record's fields as a map, made on first use (a compile looks fields up many times; a map lookup by a varying name is twice as fast as `hasOwnProperty` on the frozen object). */
const FIELD_MAPS = new WeakMap<Readonly<Record<string, Type>>, ReadonlyMap<string, Type>>();

/** The type of a record's field, or `undefined` when the name is not a field (own fields only). */
export function fieldOf(record: RecordType, name: string): Type | undefined {
  let fields = FIELD_MAPS.get(record.fields);
  if (fields === undefined) FIELD_MAPS.set(record.fields, (fields = new Map(Object.entries(record.fields))));
  return fields.get(name);
}

/** The known values of a string type, or undefined (not a string, or a string whose values are open). Pointers are followed. */
export function knownValues(type: Type | undefined): readonly string[] | undefined {
  while (type?.kind === "pointer") type = type.target;
  return type?.kind === "string" ? type.values : undefined;
}

/** The JSON mode: no schema, the datum is `interface{}`. */
export const ANY: Type = t.any;

const jobSummary = t.record("JobSummary", {
  JobID: t.string,
  Namespace: t.string,
  Children: t.pointer(t.record("JobChildrenSummary", { Pending: t.int, Running: t.int, Dead: t.int })),
  Summary: t.map(
    t.record("TaskGroupSummary", {
      Queued: t.int,
      Complete: t.int,
      Failed: t.int,
      Running: t.int,
      Starting: t.int,
      Lost: t.int,
    }),
  ),
  CreateIndex: t.uint,
  ModifyIndex: t.uint,
});

/** The job list entry of `GET /v1/jobs`. */
export const jobSchema: Schema = t.record("JobListStub", {
  ID: t.string,
  ParentID: t.string,
  Name: t.string,
  Namespace: t.string,
  Datacenters: t.list(t.string),
  Multiregion: t.pointer(t.record("Multiregion", { Strategy: t.map(t.any), Regions: t.list(t.map(t.any)) })),
  // structs.go JobTypeService/Batch/System/SysBatch: the seed (000, "Job list entry") names these
  // scheduler kinds plus `_core`, the scheduler of the internal core (garbage collection)
  // evaluations, which is not a type of registered jobs; the reference server's JOB_TYPES
  // (server/src/lists/records.ts) is this list and registration refuses any other type.
  Type: t.enumString(["service", "batch", "system", "sysbatch"]),
  Priority: t.int,
  Periodic: t.bool,
  ParameterizedJob: t.bool,
  Stop: t.bool,
  // structs.go JobStatusPending/Running/Dead. The seed (000, "States and transitions") observes
  // pending and running and does not show the complete set; JobChildrenSummary counts a parent's
  // children by these three statuses (its fields Pending, Running, Dead), and the reference server
  // (server/src/lists/register.ts) sets exactly these.
  Status: t.enumString(["pending", "running", "dead"]),
  StatusDescription: t.string,
  JobSummary: t.pointer(jobSummary),
  CreateIndex: t.uint,
  ModifyIndex: t.uint,
  JobModifyIndex: t.uint,
  SubmitTime: t.int,
});

/** A deployment of `GET /v1/deployments`. */
export const deploymentSchema: Schema = t.record("Deployment", {
  ID: t.string,
  Namespace: t.string,
  JobID: t.string,
  JobVersion: t.uint,
  JobModifyIndex: t.uint,
  JobSpecModifyIndex: t.uint,
  JobCreateIndex: t.uint,
  IsMultiregion: t.bool,
  TaskGroups: t.map(
    t.pointer(
      t.record("DeploymentState", {
        AutoRevert: t.bool,
        AutoPromote: t.bool,
        ProgressDeadline: t.int,
        Promoted: t.bool,
        PlacedCanaries: t.list(t.string),
        DesiredCanaries: t.int,
        DesiredTotal: t.int,
        PlacedAllocs: t.int,
        HealthyAllocs: t.int,
        UnhealthyAllocs: t.int,
        RequireProgressBy: t.pointer(t.string),
      }),
    ),
  ),
  // structs.go DeploymentStatus* constants, as listed by the reference
  // (/work/shared/reference/scheduler-http-behaviour.md, `structs.Deployment`: "Status values"); the
  // seed (000) observes cancelled and successful. DeploymentState has no field of fixed values.
  Status: t.enumString(["running", "paused", "failed", "successful", "cancelled", "initializing", "pending", "blocked", "unblocking"]),
  StatusDescription: t.string,
  EvalPriority: t.int,
  CreateIndex: t.uint,
  ModifyIndex: t.uint,
});

/** The schemas of the scheduler's records. */
export const schemas = Object.freeze({ job: jobSchema, deployment: deploymentSchema });

/** A readable name of a type, for messages ("list of string", "record JobSummary"). */
export function typeName(type: Type): string {
  switch (type.kind) {
    case "list":
      return `list of ${typeName(type.elem)}`;
    case "map":
      return `map of ${typeName(type.value)}`;
    case "record":
      return `record ${type.name}`;
    case "pointer":
      return typeName(type.target);
    case "int":
      return "signed integer";
    case "uint":
      return "unsigned integer";
    case "any":
      return "any JSON value";
    default:
      return type.kind;
  }
}
