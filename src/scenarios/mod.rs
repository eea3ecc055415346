//! TODO page helper
