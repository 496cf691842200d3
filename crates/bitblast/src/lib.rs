//! Bit-blasting back end: terms are translated into an and-inverter graph
//! (`aig`) through word-level circuits (`words`), encoded to CNF by Tseitin
//! and solved incrementally with CaDiCaL (`cnf`).

pub mod aig;
pub mod cnf;
pub mod words;

#[cfg(test)]
mod testing;
