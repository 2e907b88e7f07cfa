import type { Apply } from "./model.js";

/** The applies the server knows, by id. Read-only: the API shows applies and never lists or changes them. */
export class ApplyStore {
  private readonly byId: ReadonlyMap<string, Apply>;

  constructor(applies: readonly Apply[]) {
    this.byId = new Map(applies.map((a) => [a.id, a]));
  }

  get(id: string): Apply | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }
}
