//! The typed model as the status stage reads it: a resource's route, policy, listener and
//! listener-set facts by kind, so that no later stage matches on [`Spec`] for them again.

use super::facts::{Facts, Listener, ObjRef, RouteFacts, Spec};
use super::facts_policy::PolicyFacts;

impl Facts {
    /// A route's facts (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute).
    pub fn route(&self) -> Option<&RouteFacts> {
        match &self.spec {
            Spec::Route(r) => Some(r),
            _ => None,
        }
    }

    /// A policy's facts (targets and fields).
    pub fn policy(&self) -> Option<&PolicyFacts> {
        match &self.spec {
            Spec::Policy(p) => Some(p),
            _ => None,
        }
    }

    /// The listeners of a Gateway or listener set; none for other kinds.
    pub fn listeners(&self) -> &[Listener] {
        match &self.spec {
            Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => listeners,
            _ => &[],
        }
    }

    /// A listener set's `spec.parentRef` (the Gateway it joins).
    pub fn listener_set_parent(&self) -> Option<&ObjRef> {
        match &self.spec {
            Spec::ListenerSet { parent, .. } => Some(parent),
            _ => None,
        }
    }

    /// The `spec.targetRefs` of a policy; none for other kinds.
    pub fn target_refs(&self) -> &[ObjRef] {
        self.policy().map_or(&[], |p| &p.target_refs)
    }
}

impl ObjRef {
    /// Whether the reference writes its `name` (one without names nothing).
    pub fn name_written(&self) -> bool {
        self.name_span != crate::source::Span::default()
    }
}
