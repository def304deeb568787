/**
 * Managing maintenance records through the library (the HTTP API is read-only).
 * @module
 */
import type { StatusStore } from './store.js';
import type { MaintenanceRecord } from './types.js';

/** A time as a `Date`, an ISO 8601 string or milliseconds since the epoch. */
export type TimeInput = Date | string | number;

/** A maintenance record to add. */
export interface MaintenanceInput {
  /** @default a random UUID */
  id?: string;
  /** A configured service id, or `all`. */
  serviceId: string;
  /** What the maintenance is, as shown to users. */
  title: string;
  /** When it starts. */
  startsAt: TimeInput;
  /** When it ends (exclusive); after `startsAt`. */
  endsAt: TimeInput;
  /** Status text; leave it out to show `Scheduled` or `In progress` after the clock. */
  status?: string | null;
}

/** Changes to a maintenance record. */
export type MaintenancePatch = Partial<Omit<MaintenanceInput, 'id'>>;

/** Adds, changes and removes maintenance records. */
export interface MaintenanceManager {
  /**
   * Adds a record, or replaces the one with the same id (keeping its `createdAt`, and its
   * `updatedAt` when nothing changed, so that re-adding records from configuration at start-up is harmless).
   * @throws {RangeError} for an unknown service id, an unreadable time, or `endsAt` not after `startsAt`.
   */
  add(input: MaintenanceInput): Promise<MaintenanceRecord>;
  /**
   * Changes a record.
   * @throws {RangeError} when no record has that id, or the result is invalid as for `add`.
   */
  update(id: string, patch: MaintenancePatch): Promise<MaintenanceRecord>;
  /** @returns Whether the record existed. */
  remove(id: string): Promise<boolean>;
  /** @returns Every stored record, ended ones included. */
  list(): Promise<MaintenanceRecord[]>;
}

function toMs(value: TimeInput, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`${name} is not a valid time: ${String(value)}`);
  return ms;
}

/**
 * Creates the maintenance manager over a store.
 * @param options - The store, the clock, the configured service ids, and what to do after a change.
 * @returns The manager.
 */
export function createMaintenanceManager(options: {
  store: StatusStore;
  now: () => number;
  serviceIds: readonly string[];
  onChange?: () => void;
}): MaintenanceManager {
  const { store, now, onChange } = options;
  const ids = new Set(options.serviceIds);

  function validate(record: MaintenanceRecord): MaintenanceRecord {
    // Records may come from JSON configuration, so the types are checked too.
    if (typeof record.id !== 'string' || record.id === '') throw new RangeError('id must be a non-empty string');
    if (typeof record.title !== 'string') throw new RangeError('title must be a string');
    if (record.status !== null && typeof record.status !== 'string') throw new RangeError('status must be a string or null');
    if (record.serviceId !== 'all' && !ids.has(record.serviceId)) {
      throw new RangeError(`serviceId must be a configured service id or "all", not "${record.serviceId}"`);
    }
    if (!(record.endsAt > record.startsAt)) throw new RangeError('endsAt must be after startsAt');
    return record;
  }

  async function find(id: string): Promise<MaintenanceRecord | undefined> {
    return (await store.listMaintenances()).find((record) => record.id === id);
  }

  async function save(record: MaintenanceRecord): Promise<MaintenanceRecord> {
    await store.putMaintenance(record);
    onChange?.();
    return record;
  }

  return {
    async add(input) {
      const at = now();
      const id = input.id ?? crypto.randomUUID();
      const existing = input.id === undefined ? undefined : await find(id);
      const record = validate({
        id,
        serviceId: input.serviceId,
        title: input.title,
        startsAt: toMs(input.startsAt, 'startsAt'),
        endsAt: toMs(input.endsAt, 'endsAt'),
        status: input.status ?? null,
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
      });
      if (existing) {
        const same =
          existing.serviceId === record.serviceId &&
          existing.title === record.title &&
          existing.startsAt === record.startsAt &&
          existing.endsAt === record.endsAt &&
          existing.status === record.status;
        if (same) return existing;
      }
      return save(record);
    },
    async update(id, patch) {
      const existing = await find(id);
      if (!existing) throw new RangeError(`No maintenance record with id ${id}`);
      return save(
        validate({
          ...existing,
          serviceId: patch.serviceId ?? existing.serviceId,
          title: patch.title ?? existing.title,
          startsAt: patch.startsAt === undefined ? existing.startsAt : toMs(patch.startsAt, 'startsAt'),
          endsAt: patch.endsAt === undefined ? existing.endsAt : toMs(patch.endsAt, 'endsAt'),
          status: patch.status === undefined ? existing.status : patch.status,
          updatedAt: now(),
        }),
      );
    },
    async remove(id) {
      const removed = await store.deleteMaintenance(id);
      if (removed) onChange?.();
      return removed;
    },
    list: () => store.listMaintenances(),
  };
}
