//! A Gateway's entries and rendered Envoy routes, kept for where they repeat: a route served on
//! several virtual hosts or listeners has the same entries in each, and each of its rules is an
//! Envoy Route equal but for its name (on a repository's Gateways a third of the routes are such
//! repeats). Each is made once, and copied where it repeats.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use crate::render::pointer::Pointer;

use super::super::Context;
use super::entries::{self, Delegation, Entry};
use super::policy::Policies;
use crate::model::Object;

/// The entries of the routes attached to a Gateway's listeners, by route and listener port.
#[derive(Default)]
pub struct EntryMemo<'a> {
    of: HashMap<(usize, i64), Vec<Entry<'a>>>,
}

impl<'a> EntryMemo<'a> {
    /// The entries of `route` coming in by a listener of `port` ([`entries::of_route`]).
    pub fn of_route(
        &mut self,
        ctx: &Context<'a>,
        policies: &Policies<'_>,
        route: &'a Object,
        port: i64,
    ) -> &[Entry<'a>] {
        self.of
            .entry((std::ptr::from_ref(route) as usize, port))
            .or_insert_with(|| {
                let mut out = Vec::new();
                entries::of_route(ctx, policies, route, port, &mut out);
                out
            })
    }
}

/// The HTTP filters a route declares on its filter chain (see [`super::policy::Applied`]).
type Declarations = BTreeMap<String, Value>;

/// What the route of an entry that is not delegated depends on, but for its name: its route,
/// rule and match, and the listener's port (a redirect's default). A delegated entry's match
/// and settings depend on its parents' too: those are rendered each time (they are few).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    route: usize,
    rule: usize,
    match_index: usize,
    port: i64,
}

impl Key {
    fn of(e: &Entry<'_>) -> Option<Self> {
        (e.parents.is_empty() && e.delegation == Delegation::None).then(|| Key {
            route: std::ptr::from_ref(e.route) as usize,
            rule: e.rule_index,
            match_index: e.match_index,
            port: e.port,
        })
    }
}

/// The entries of one key.
struct Slot {
    /// Renderings still to be handed out: the last takes the kept one rather than a copy.
    left: usize,
    done: Option<Done>,
}

/// A rendered route and the declarations its rendering added.
struct Done {
    route: Result<Value, String>,
    declarations: Declarations,
}

/// The renderings of a Gateway's repeated routes (see the module's doc).
#[derive(Default)]
pub struct RouteMemo {
    slots: HashMap<Key, Slot>,
}

impl RouteMemo {
    /// A memo for the Gateway's `entries` (of every route configuration): it keeps the renderings
    /// of those that repeat until their last use.
    pub fn counting<'e, 'a: 'e>(entries: impl Iterator<Item = &'e Entry<'a>>) -> Self {
        let mut slots: HashMap<Key, Slot> = HashMap::new();
        for key in entries.filter_map(Key::of) {
            let slot = slots.entry(key).or_insert(Slot {
                left: 0,
                done: None,
            });
            slot.left += 1;
        }
        // What does not repeat is rendered as it comes.
        slots.retain(|_, slot| slot.left > 1);
        RouteMemo { slots }
    }

    /// The route of `e` named `name`: `render`ed (adding to `declarations` as it does), or a
    /// repeat's copy renamed, its declarations added again.
    pub fn route(
        &mut self,
        e: &Entry<'_>,
        name: String,
        declarations: &mut Declarations,
        render: impl FnOnce(String, &mut Declarations) -> Result<Value, String>,
    ) -> Result<Value, String> {
        let slot = Key::of(e).and_then(|key| self.slots.get_mut(&key));
        let Some(slot) = slot.filter(|slot| slot.left > 0) else {
            return render(name, declarations);
        };
        slot.left -= 1;
        if let Some(done) = &mut slot.done {
            declare(&done.declarations, declarations);
            let route = if slot.left == 0 {
                std::mem::replace(&mut done.route, Ok(Value::Null))
            } else {
                done.route.clone()
            };
            return route.map(|r| renamed(r, name));
        }
        let mut own = Declarations::new();
        let route = render(name.clone(), &mut own);
        declare(&own, declarations);
        // A rendering whose name is not the one given (a field of the rule's overwrote it) is
        // not renamed: such a route is rendered each time.
        let keeps = route.as_ref().map_or(true, |r| {
            r.field("name").and_then(Value::as_str) == Some(&name)
        });
        if keeps && slot.left > 0 {
            slot.done = Some(Done {
                route: route.clone(),
                declarations: own,
            });
        } else {
            slot.left = 0;
        }
        route
    }
}

/// Adds a rendering's declarations to the route configuration's, as the rendering does (the
/// first of a name stays).
fn declare(own: &Declarations, into: &mut Declarations) {
    for (k, v) in own {
        into.entry(k.clone()).or_insert_with(|| v.clone());
    }
}

/// A kept rendering with the name of the entry it is handed to.
fn renamed(mut route: Value, name: String) -> Value {
    if let Some(field) = route.get_mut("name") {
        *field = Value::String(name);
    }
    route
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use serde_json::{Value, json};

    use super::{Declarations, RouteMemo};
    use crate::model::Object;
    use crate::model::facts::{Ident, RouteFacts};
    use crate::render::envoy::entries::{Delegation, Entry};

    fn route(name: &str) -> Object {
        Object {
            id: Ident {
                group: "gateway.networking.k8s.io".into(),
                kind: "HTTPRoute".into(),
                namespace: "default".into(),
                namespace_known: true,
                name: name.into(),
                file: 0,
                span: Default::default(),
                name_span: Default::default(),
            },
            value: json!({}),
            written: None,
        }
    }

    fn entry<'a>(
        route: &'a Object,
        typed: &'a RouteFacts,
        rule: &'a Value,
        port: i64,
    ) -> Entry<'a> {
        Entry {
            route,
            typed,
            rule_index: 0,
            rule,
            match_index: 0,
            m: Rc::new(json!({"path": {"value": "/"}})),
            port,
            delegation: Delegation::None,
            root: route,
            root_typed: typed,
            order: 0,
            parents: Vec::new(),
        }
    }

    /// A route's rendering as the renderer makes it: named, on its port, declaring a filter of
    /// its own and one every route declares (added first by whichever comes first).
    fn render(
        e: &Entry<'_>,
        name: String,
        declarations: &mut Declarations,
    ) -> Result<Value, String> {
        declarations
            .entry("shared".into())
            .or_insert_with(|| json!(e.route.id.name));
        declarations.insert(format!("own-{}", e.port), json!(e.port));
        if e.port == 0 {
            return Err("no port".into());
        }
        // A name of the rule's own on port 81: not the one given.
        let name = if e.port == 81 { "fixed".into() } else { name };
        Ok(json!({"match": {"prefix": "/"}, "name": name, "port": e.port}))
    }

    #[test]
    fn a_repeated_route_is_rendered_once_and_equals_its_rendering() {
        let (a, b) = (route("a"), route("b"));
        let typed = RouteFacts::default();
        let rule = json!({});
        let entries = [
            entry(&a, &typed, &rule, 80),
            entry(&b, &typed, &rule, 80),
            entry(&a, &typed, &rule, 80),
            entry(&a, &typed, &rule, 443),
            entry(&a, &typed, &rule, 80),
            entry(&a, &typed, &rule, 0),
            entry(&a, &typed, &rule, 0),
            entry(&a, &typed, &rule, 81),
            entry(&a, &typed, &rule, 81),
        ];
        let mut memo = RouteMemo::counting(entries.iter());
        let calls = Cell::new(0);
        for (i, e) in entries.iter().enumerate() {
            let name = format!("route-{i}");
            let mut kept = Declarations::new();
            kept.insert("shared".into(), json!("before"));
            let mut fresh = kept.clone();
            let got = memo.route(e, name.clone(), &mut kept, |name, declarations| {
                calls.set(calls.get() + 1);
                render(e, name, declarations)
            });
            let want = render(e, name, &mut fresh);
            assert_eq!(got, want, "entry {i}");
            assert_eq!(kept, fresh, "entry {i}");
        }
        // a:80 three times, a:0 twice and a:81 twice (renamed by the rule) are rendered once,
        // once and twice.
        assert_eq!(calls.get(), 1 + 1 + 1 + 1 + 2);
    }
}
