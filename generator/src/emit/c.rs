//! c emitter (in progress).
