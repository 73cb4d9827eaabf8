/**
 * Crime analysis: hot spots, kernel density, near repeat, repeat locations, CompStat, cancel, and
 * the map's time playback (the filtered incidents by day).
 * The work is the engine's analysis service (engine/analysis/service.ts; built once in services.ts).
 */
import type { HandlerGroup } from './handler';

export const analysisHandlers = {
  analyzeHotSpots: (input, ctx) => ctx.services.analysis.hotSpots(input),
  analyzeKde: (input, ctx) => ctx.services.analysis.kde(input),
  analyzeNearRepeat: (input, ctx) => ctx.services.analysis.nearRepeat(input),
  analyzeRepeatLocations: (input, ctx) => ctx.services.analysis.repeatLocations(input),
  analyzeCompStat: (input, ctx) => ctx.services.analysis.compStat(input),
  cancelAnalysis: async ({ jobId }, ctx) => ({ cancelled: ctx.services.analysis.cancel(jobId) }),
  getPlaybackPoints: ({ filters }, ctx) => ctx.services.analysis.playback(filters),
} satisfies HandlerGroup;
