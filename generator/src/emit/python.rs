//! python emitter (in progress).
