//! Tests of the SMT-LIB2 printer.
