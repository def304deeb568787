import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { createStatusApp, type MaintenanceView, type ServiceView, type StatusApp, type StatusSnapshot } from '@catalogue-api/core';
import { maintenanceSchema, serviceSchema, statusSnapshotSchema } from '@catalogue-api/core/schemas';

describe('status API public types', () => {
  it('keeps the zod schemas and the TypeScript shapes in step', () => {
    expectTypeOf<z.infer<typeof maintenanceSchema>>().toEqualTypeOf<MaintenanceView>();
    expectTypeOf<z.infer<typeof statusSnapshotSchema>>().toEqualTypeOf<StatusSnapshot>();
    // The schema is narrower on purpose: active_maintenance is always an active record.
    expectTypeOf<z.infer<typeof serviceSchema>>().toExtend<ServiceView>();
    expectTypeOf<NonNullable<z.infer<typeof serviceSchema>['active_maintenance']>['state']>().toEqualTypeOf<'active'>();
  });

  it('types the app as a status app with both doors', () => {
    expectTypeOf(createStatusApp).returns.toEqualTypeOf<StatusApp>();
    expectTypeOf<StatusApp['snapshot']>().returns.resolves.toEqualTypeOf<StatusSnapshot>();
    expectTypeOf<StatusSnapshot['services'][number]['status']>().toEqualTypeOf<
      'operational' | 'degraded' | 'down' | 'unknown' | 'maintenance'
    >();
  });
});
