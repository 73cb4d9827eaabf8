/**
 * A long job's pause: it lets the engine's event loop answer the calls waiting behind it (a slice
 * of rows read, a feature checked) before the job goes on. Shared by the query, exports and
 * boundaries, so none of them imports another's folder for it.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
