//! js emitter (in progress).
