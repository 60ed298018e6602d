//! Syntax checking, pathological input, threads and evaluation cost.

use serde_json::json;

use super::*;

#[test]
fn syntax_error_positions() {
    let err = check_syntax("a &&").unwrap_err();
    assert_eq!((err.line, err.column), (1, 5), "{err:?}");
    assert_eq!(err.offset, 4);
    let err = check_syntax("request.x &&\n  foo(").unwrap_err();
    assert_eq!(err.line, 2, "{err:?}");
    assert_eq!(err.offset, "request.x &&\n".len() + err.column - 1);
    // Columns are characters, the offset bytes.
    let err = check_syntax("'üü' +* 2").unwrap_err();
    assert_eq!(err.column, 7, "{err:?}");
    assert_eq!(err.offset, 8);
    assert!(CompiledRule::compile("self.a ==").is_err());
}

#[test]
fn check_syntax_lists_free_identifiers() {
    let names =
        check_syntax("request.headers['x'] == 'a' && jwt.groups.exists(g, g == 'ops')").unwrap();
    assert_eq!(names, vec!["jwt".to_string(), "request".to_string()]);
    assert_eq!(
        check_syntax("[1].map(x, x + y)").unwrap(),
        vec!["y".to_string()]
    );
}

#[test]
fn pathological_input_is_rejected_without_crashing() {
    let max = CelLimits::default().max_depth;
    let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    let err = check_syntax(&deep).unwrap_err();
    assert_eq!(
        err.message,
        format!("CEL expression nests deeper than --max-cel-depth ({max})")
    );
    assert_eq!((err.offset, err.limit), (max, Some(LimitHit::Depth)));
    assert_eq!(
        CompiledRule::compile(&deep).unwrap_err(),
        format!("1:{}: {}", max + 1, err.message)
    );
    // Brackets in strings do not count; just under the limit parses.
    let quoted = format!("'{}' == ''", "(".repeat(500));
    assert!(check_syntax(&quoted).is_ok());
    let ok = format!("{}1{}", "[".repeat(40), "]".repeat(40));
    assert!(check_syntax(&ok).is_ok());
    let long = format!("a == '{}'", "x".repeat(CelLimits::default().max_length));
    let err = check_syntax(&long).unwrap_err();
    assert_eq!(err.limit, Some(LimitHit::Length));
    assert_eq!(
        err.message,
        format!(
            "CEL expression is {} bytes long, more than --max-cel-length ({})",
            long.len(),
            CelLimits::default().max_length
        )
    );
    // The OOM reproducer of cel-rust#306 and other garbage: errors, not panics.
    for junk in [
        "!!(".repeat(42),
        "a.b.(".to_string(),
        "\u{0}".to_string(),
        "r\"\"\"".to_string(),
    ] {
        assert!(check_syntax(&junk).is_err(), "{junk}");
    }
}

#[test]
fn limits_are_parameters() {
    let limits = CelLimits {
        max_length: 10,
        max_depth: 3,
    };
    let err = check_syntax_with("a.b.c.d.e", &limits).unwrap_err();
    assert_eq!((err.offset, err.limit), (7, Some(LimitHit::Depth)));
    assert_eq!(
        check_syntax_with("a.b.c.d", &limits),
        Ok(vec!["a".to_string()])
    );
    let err = check_syntax_with("request.x == 1", &limits).unwrap_err();
    assert_eq!((err.offset, err.limit), (0, Some(LimitHit::Length)));
    assert!(CompiledRule::compile_with("self.a.b.c.d", &limits).is_err());
    assert!(CompiledRule::compile_with("self.a.b.c", &limits).is_ok());
}

#[test]
fn compiled_rules_are_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<CompiledRule>();
    let rule = std::sync::Arc::new(CompiledRule::compile("self.all(x, x > 0)").unwrap());
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let rule = std::sync::Arc::clone(&rule);
            std::thread::spawn(move || rule.eval(&from_json(&json!([1, i]))))
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().ok()).collect();
    assert_eq!(results[0], Some(Ok(false)));
    assert!(results[1..].iter().all(|r| *r == Some(Ok(true))));
}

/// Run with `cargo test --lib cel::tests::eval_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn eval_cost() {
    let rule =
        CompiledRule::compile("self.all(l1, self.exists_one(l2, l1.name == l2.name))").unwrap();
    let value = from_json(&json!([
        {"name": "a", "port": 80, "protocol": "HTTP"},
        {"name": "b", "port": 443, "protocol": "HTTPS"},
        {"name": "c", "port": 8080, "protocol": "HTTP"}
    ]));
    let n = 20_000;
    let start = std::time::Instant::now();
    for _ in 0..n {
        assert_eq!(rule.eval(&value), Ok(true));
    }
    let per = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    let matches = CompiledRule::compile("self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')").unwrap();
    let s = string_value("my-name");
    let start = std::time::Instant::now();
    for _ in 0..n {
        assert_eq!(matches.eval(&s), Ok(true));
    }
    let per_matches = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    println!("eval cost: {per:.2} us (list of 3 maps), {per_matches:.2} us (matches)");
    for probe in [
        "true",
        "self.all(l1, true)",
        "self.all(l1, self.all(l2, true))",
        "self[0].name == self[1].name",
    ] {
        let r = CompiledRule::compile(probe).unwrap();
        let start = std::time::Instant::now();
        for _ in 0..n {
            assert_eq!(
                r.eval(&value),
                Ok(true).map(|_: bool| probe != "self[0].name == self[1].name")
            );
        }
        println!(
            "{probe}: {:.2} us",
            start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        );
    }
}
