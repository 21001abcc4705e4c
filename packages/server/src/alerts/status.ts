import type { NotificationStatus } from '@marketlens/contract';

/** What moves an alert: the evaluator (`trigger`), time (`expire`), its owner (`update`, `enable`, `disable`). */
export type AlertEvent = 'trigger' | 'expire' | 'update' | 'enable' | 'disable';

/**
 * The alert state machine (the contract leaves its transitions open). An edit re-arms a fired or
 * expired alert and keeps a paused one paused; `enabled: true` re-arms anything; `enabled: false`
 * pauses anything. Only an active alert can fire or expire. Deleting removes the alert in any state.
 * Whenever the next state is `active`, the alert is re-armed (evaluated afresh from that moment).
 */
export const ALERT_TRANSITIONS: Readonly<
  Record<NotificationStatus, Readonly<Partial<Record<AlertEvent, NotificationStatus>>>>
> = {
  active: { trigger: 'triggered', expire: 'expired', update: 'active', enable: 'active', disable: 'disabled' },
  triggered: { update: 'active', enable: 'active', disable: 'disabled' },
  expired: { update: 'active', enable: 'active', disable: 'disabled' },
  disabled: { update: 'disabled', enable: 'active', disable: 'disabled' },
};

/** The state `event` moves `status` to, or null when the event does not apply there. */
export function nextStatus(status: NotificationStatus, event: AlertEvent): NotificationStatus | null {
  return ALERT_TRANSITIONS[status][event] ?? null;
}

/** The owner's event of a create or update payload: its `enabled` flag, when given. */
export function ownerEvent(enabled: boolean | undefined): AlertEvent {
  return enabled === false ? 'disable' : enabled === true ? 'enable' : 'update';
}
