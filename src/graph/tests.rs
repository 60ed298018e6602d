use super::*;

fn id(kind: NodeKind, object_kind: &str, name: &str) -> NodeId {
    NodeId::object(kind, object_kind, "shop", name)
}

fn node(id: &NodeId) -> Node {
    Node {
        id: id.clone(),
        errors: 0,
        missing: false,
        detail: String::new(),
    }
}

/// An edge by its ends' ids.
fn edge<'a>(
    from: &'a NodeId,
    to: &'a NodeId,
    kind: EdgeKind,
) -> (&'a NodeId, &'a NodeId, EdgeKind) {
    (from, to, kind)
}

fn graph(nodes: &[&NodeId], edges: Vec<(&NodeId, &NodeId, EdgeKind)>) -> Graph {
    let mut ids = Ids::default();
    let edges = edges
        .into_iter()
        .map(|(from, to, kind)| ids.edge(from.clone(), to.clone(), kind, String::new()))
        .collect();
    Graph::new(nodes.iter().map(|n| node(n)).collect(), ids, edges)
}

#[test]
fn a_graph_is_sorted_without_dangling_edges() {
    let route = id(NodeKind::Route, "HTTPRoute", "a");
    let policy = id(NodeKind::Policy, "TrafficPolicy", "p");
    let gone = id(NodeKind::Backend, "Service", "gone");
    let g = graph(
        &[&route, &policy, &route],
        vec![
            edge(&policy, &route, EdgeKind::Policy(Outcome::Applies)),
            edge(&route, &gone, EdgeKind::BackendRef),
            edge(&policy, &route, EdgeKind::Policy(Outcome::Applies)),
        ],
    );
    let names: Vec<&str> = g.nodes.iter().map(|n| n.id.name.as_str()).collect();
    assert_eq!(names, ["p", "a"]);
    // One edge, from the policy to the route, by their positions.
    let ends: Vec<(usize, usize)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(ends, [(0, 1)]);
}

#[test]
fn change_marks_added_and_removed_around_the_changed_edges() {
    let gw = id(NodeKind::Gateway, "Gateway", "edge");
    let route = id(NodeKind::Route, "HTTPRoute", "checkout");
    let fast = id(NodeKind::Policy, "TrafficPolicy", "fast");
    let slow = id(NodeKind::Policy, "TrafficPolicy", "slow");
    let unrelated = id(NodeKind::Route, "HTTPRoute", "other");
    let attached = edge(&gw, &route, EdgeKind::Attached);
    let base = graph(
        &[&gw, &route, &fast, &unrelated],
        vec![
            attached,
            edge(&gw, &unrelated, EdgeKind::Attached),
            edge(&fast, &route, EdgeKind::Policy(Outcome::Applies)),
        ],
    );
    let head = graph(
        &[&gw, &route, &fast, &slow, &unrelated],
        vec![
            attached,
            edge(&gw, &unrelated, EdgeKind::Attached),
            edge(&fast, &route, EdgeKind::Policy(Outcome::Overridden)),
            edge(&slow, &route, EdgeKind::Policy(Outcome::Applies)),
        ],
    );
    assert!(change(&base, &base).is_none());
    let Some(c) = change(&base, &head) else {
        panic!("a change");
    };
    let nodes: Vec<(&str, Mark)> = c
        .graph
        .nodes
        .iter()
        .zip(&c.nodes)
        .map(|(n, m)| (n.id.name.as_str(), *m))
        .collect();
    assert_eq!(
        nodes,
        [
            ("fast", Mark::Same),
            ("slow", Mark::Added),
            ("checkout", Mark::Same)
        ]
    );
    let edges: Vec<(&str, EdgeKind, Mark)> = c
        .graph
        .edges
        .iter()
        .zip(&c.edges)
        .map(|(e, m)| (c.graph.nodes[e.from].id.name.as_str(), e.kind, *m))
        .collect();
    assert_eq!(
        edges,
        [
            ("fast", EdgeKind::Policy(Outcome::Applies), Mark::Removed),
            ("fast", EdgeKind::Policy(Outcome::Overridden), Mark::Added),
            ("slow", EdgeKind::Policy(Outcome::Applies), Mark::Added),
        ]
    );
}

#[test]
fn namespace_selection_keeps_neighbours_across_namespaces() {
    let gw = NodeId::object(NodeKind::Gateway, "Gateway", "infra", "edge");
    let listener = gw.section(NodeKind::Listener, 0, "http");
    let route = id(NodeKind::Route, "HTTPRoute", "checkout");
    let other = NodeId::object(NodeKind::Route, "HTTPRoute", "team", "x");
    let g = graph(
        &[&gw, &listener, &route, &other],
        vec![
            edge(&gw, &listener, EdgeKind::Contains),
            edge(&listener, &route, EdgeKind::Attached),
            edge(&listener, &other, EdgeKind::Attached),
        ],
    );
    let selection = Selection {
        gateway: None,
        namespace: Some("shop".to_string()),
    };
    let Ok(s) = select(g, &selection) else {
        panic!("selected");
    };
    let names: Vec<(&str, &str)> = s
        .nodes
        .iter()
        .map(|n| (n.id.name.as_str(), n.id.section.as_str()))
        .collect();
    assert_eq!(names, [("edge", "http"), ("checkout", "")]);
    assert_eq!(s.edges.len(), 1);
}
