/**
 * Days recent enough that reports may still arrive: the sync's ledger writes them provisional and
 * the archive's coverage says so. One constant for the sync and the query service alike.
 */
export const PROVISIONAL_DAYS = 2;
