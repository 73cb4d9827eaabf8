/** Geometry shared by the engine, the renderer, the simulator and the benches (see README.md). */
export * from './units';
export * from './distance';
export * from './bbox';
export * from './polygon';
export * from './shapes';
export * from './region';
export * from './coordinates';
export * from './utm';
export * from './features';
export * from './packed';
