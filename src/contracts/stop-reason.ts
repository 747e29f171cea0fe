/**
 * Why a run, or one benchmark of a suite, stopped measuring: its iterations were done, the
 * interval was precise enough, the time budget was spent, it was interrupted, or it failed.
 */
export type StopReason = 'iterations' | 'precision' | 'budget' | 'interrupted' | 'failed';
