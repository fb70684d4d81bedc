/** What the resource handlers, watches included, need from the simulator behind the API. */
import type { MemoryStore } from '../sim/store/store';

export interface ResourceHandlerDeps {
  store: MemoryStore;
  /** Virtual time now, for AGE columns and timestamps. */
  now(): number;
  /** Called after every successful write, so the clock driver can run the consequences. */
  afterWrite(): void;
}
