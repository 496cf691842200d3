//! Property tests of the rewriter.
