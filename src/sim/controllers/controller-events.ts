import type { KubeObject } from '../../core/k8s';
import type { ComponentName } from '../../core/internals';
import type { SimContext } from '../context';
import { ApiError } from '../store/types';

/**
 * Record an event for a controller. client-go's broadcaster writes events asynchronously and drops
 * the ones the API server refuses, so a failed event write never fails the controller's sync.
 */
export function recordEvent(ctx: SimContext, component: ComponentName, involved: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
  try {
    ctx.events.record(involved, type, reason, message, { component });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
}
