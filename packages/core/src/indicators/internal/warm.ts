/**
 * How many steps a kernel runs through its loop function in a first, short call, before the call
 * that does the rest of the series.
 *
 * Why: V8 gives a function its feedback vector (the record of the types each operation saw) only
 * after it has run for a while. On the first call of a kernel whose work is one long loop, the code
 * before the loop runs unrecorded, the loop is compiled mid-way (on-stack replacement) and the code
 * after it has never run. The full compile that follows lacks feedback for the entry and is thrown
 * away on its first call ("insufficient type feedback"), and the mid-loop code, which V8 keeps and
 * re-enters from the interpreter on later calls, is thrown away at the loop's exit on each of them:
 * calls at two to three times the steady time, three or four of them or for good, depending on
 * which kernels ran before. A short first call records the exit (its loop runs long enough for the
 * vector to be allocated) and the second call records the entry, so the full compile is complete.
 * 64 steps are enough at every kernel's loop size and cost nothing measurable.
 * @internal
 */
export const WARM_HEAD = 64;
