/**
 * The importable resources: every collection of core's `COLLECTIONS`, each with the zod schema
 * that validates one record (the same definitions core's routes and demo data use; for anime,
 * manga, characters, episodes and videos their input forms, which take a record exactly as Jikan
 * v4 serves it and fill the fields it does not send with `null`) and the key an upsert replaces by.
 * Both come from `COLLECTIONS`, so that the importer and the store agree with core on them.
 * @module
 */
import { COLLECTION_NAMES, COLLECTIONS, collectionKey, isCollectionName, type CatalogueData } from '@catalogue-api/core';

/** A collection of `CatalogueData`: `anime`, `manga`, `characters`, `animeCharacters`… */
export type ResourceName = keyof CatalogueData;

/** What the importer needs of a zod schema. */
export interface RecordSchema {
  /**
   * Validates one record, as zod's `safeParse` does.
   * @param value - The record as read from the input.
   * @returns The parsed record, or the issues with their paths.
   */
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** How one resource is validated and identified. */
export interface ResourceDefinition {
  /** Validates one record; its output (known fields, in schema order) is what gets stored. */
  schema: RecordSchema;
  /** The fields that identify a record; re-importing a record with the same values replaces it. */
  key: readonly string[];
}

/** Every resource, by its `CatalogueData` key (core's `COLLECTIONS`: schema and key). */
export const RESOURCES: Readonly<Record<ResourceName, ResourceDefinition>> = Object.fromEntries(
  COLLECTION_NAMES.map((name) => [name, { schema: COLLECTIONS[name].schema as RecordSchema, key: COLLECTIONS[name].key }]),
) as Record<ResourceName, ResourceDefinition>;

/** The resource names, for messages and `--resource`. */
export const RESOURCE_NAMES: readonly ResourceName[] = COLLECTION_NAMES;

/**
 * Whether a string names a resource.
 * @param name - Any string.
 */
export function isResourceName(name: string): name is ResourceName {
  return isCollectionName(name);
}

/**
 * The identity of a record of a resource, as a string (the upsert key: core's `collectionKey`).
 * @param resource - The resource.
 * @param record - A validated record.
 * @returns `"20"` for anime 20, `"20:17"` for character 17 in anime 20, …
 */
export function recordKey(resource: ResourceName, record: unknown): string {
  return collectionKey(resource, record);
}
