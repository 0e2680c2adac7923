//! go emitter (in progress).
