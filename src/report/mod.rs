//! Report stage: the only place that formats findings. INTERFACE STUB.
