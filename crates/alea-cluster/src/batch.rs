//! Batches on a cluster: items `0..n` (deals, games) split into fixed blocks, the blocks
//! dealt round-robin to the workers of all processes, each block's partial result sent
//! to worker 0 and merged there in block order. The blocks do not depend on the number of
//! processes or threads, so neither does the result.
