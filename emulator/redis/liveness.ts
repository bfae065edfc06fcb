// How replicas on one store tell that another is still there: a registration in a sorted set
// scored by when it expires, on Redis's clock, refreshed on a heartbeat (the replicas' registry,
// replicas.ts; the event stream's readers, event-relay.ts).

/** How long a registration lasts without a heartbeat: the bound on how long a killed replica fails gathered reads. */
export const HEARTBEAT_TTL_MS = 5000;
export const HEARTBEAT_EVERY_MS = 1000;
