/**
 * The service requests are answered with, swappable while the server runs (a config reload).
 * A request takes the current service once, when it starts, and keeps it until it ends, so it
 * sees one configuration throughout; a swapped-out service is drained (every request that took
 * it has ended) before what only it used is closed.
 */
import type { Service } from './service.js';

export interface HeldService {
  readonly service: Service;
  /** The request using `service` has ended (idempotent). */
  leave(): void;
}

export interface ServiceHolder {
  /** The service a request starting now uses until it ends; `leave()` when it does. */
  enter(): HeldService;
  current(): Service;
  /** Requests starting from now use `next`; settles once the requests using the previous service have ended. */
  swap(next: Service): Promise<void>;
}

interface Generation {
  readonly service: Service;
  users: number;
  retired: boolean;
  drained?: () => void;
}

export function holdService(initial: Service): ServiceHolder {
  let live: Generation = { service: initial, users: 0, retired: false };
  const ended = (generation: Generation) => {
    if (generation.retired && generation.users === 0) generation.drained?.();
  };
  return {
    enter() {
      const generation = live;
      generation.users++;
      let left = false;
      return {
        service: generation.service,
        leave() {
          if (left) return;
          left = true;
          generation.users--;
          ended(generation);
        },
      };
    },
    current: () => live.service,
    swap(next) {
      const previous = live;
      live = { service: next, users: 0, retired: false };
      previous.retired = true;
      return new Promise<void>((resolve) => {
        previous.drained = resolve;
        ended(previous);
      });
    },
  };
}
