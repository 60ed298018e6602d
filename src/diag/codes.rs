//! The one table of rule codes. Adding a rule means adding a row here and emitting the code
//! from the stage that detects it; docs, `gwctl rules` and SARIF rule lists are generated from it.

use super::Severity;

pub struct Rule {
    pub code: &'static str,
    /// Kebab-case name, for people and for SARIF `name`.
    pub name: &'static str,
    pub severity: Severity,
    /// One line: what the finding means.
    pub summary: &'static str,
    /// Why it matters and how to fix it.
    pub explanation: &'static str,
}

const fn r(
    code: &'static str,
    name: &'static str,
    severity: Severity,
    summary: &'static str,
    explanation: &'static str,
) -> Rule {
    Rule {
        code,
        name,
        severity,
        summary,
        explanation,
    }
}

use Severity::{Error, Info, Warning};

pub static RULES: &[Rule] = &[
    // GW0xx: input
    r(
        "GW001",
        "unreadable-input",
        Error,
        "A path could not be read",
        "The path does not exist, is not readable, or is not a file or directory. The other inputs are still linted; the run exits with code 2.",
    ),
    r(
        "GW002",
        "syntax-error",
        Error,
        "The file is not valid YAML or JSON",
        "The parser stopped at the position shown. Documents after the next `---` separator are still read. Common causes: tabs used for indentation, a value indented less than its key, an unterminated quote.",
    ),
    r(
        "GW003",
        "duplicate-key",
        Error,
        "A mapping has the same key twice",
        "The API server and kubectl keep only one of the values (which one depends on the client), so half of what was written is silently lost. Remove or merge one of the entries.",
    ),
    r(
        "GW004",
        "not-an-object",
        Error,
        "A document is not a Kubernetes object",
        "Every document must be a mapping with `apiVersion` and `kind` strings. Empty documents are ignored.",
    ),
    r(
        "GW005",
        "input-limit",
        Error,
        "An input exceeded a safety limit",
        "A YAML alias expansion, nesting depth or document size limit was hit (for example a \"billion laughs\" document), or the inputs together exceed --max-total-bytes. The document (or the file, for the total) is not linted further; the limit is named in the message.",
    ),
    r(
        "GW006",
        "unknown-kind",
        Error,
        "A known API group has no such kind",
        "The apiVersion names an API group gwctl knows, but the kind does not exist in it. When the kind is close to one of the group's kinds (a different capitalisation, a letter or two off) it is a typo the API server would reject: an error with \"did you mean\". Any other kind may come from a newer release of the group: a warning that the object is not checked (it is counted under `notChecked`); pass its CustomResourceDefinition with `--crds` to check it.",
    ),
    r(
        "GW007",
        "unknown-version",
        Error,
        "The kind exists but not in this version",
        "The API server would reject the object: no schema is served for this version of the kind. The message lists the versions that exist.",
    ),
    r(
        "GW008",
        "not-checked",
        Info,
        "A document gwctl does not check",
        "The object's kind is outside the API groups gwctl knows (or a tool file such as kustomization.yaml), so it is not validated. Supply its CRD with `--crds` to check it.",
    ),
    r(
        "GW009",
        "invalid-encoding",
        Error,
        "A file is not UTF-8 text",
        "The file contains invalid UTF-8 or binary data and is skipped; the other files are still linted.",
    ),
    r(
        "GW010",
        "invalid-crd",
        Error,
        "A CustomResourceDefinition given with --crds cannot be used",
        "The document is a CustomResourceDefinition but lacks what gwctl needs to check objects against it (spec.group, spec.names.kind, spec.versions with names). Objects of its kind are not checked with it; fix the CRD or leave it out.",
    ),
    r(
        "GW011",
        "unused-suppression",
        Info,
        "A suppression annotation suppresses nothing",
        "The resource's `gwctl.dev/ignore` annotation names a code that has no finding on this resource (or no rule at all). Remove the code from the annotation so that stale suppressions do not hide future findings.",
    ),
    r(
        "GW012",
        "invalid-config",
        Error,
        "The config file has a value gwctl cannot use",
        "The config file (gwctl.yaml, .gwctl.yaml or --config) names an unknown rule code or has an invalid glob. A bad config file is a usage error: gwctl prints its findings and exits with code 2 without linting.",
    ),
    r(
        "GW013",
        "duplicate-object",
        Error,
        "The same object is defined twice",
        "Two documents (in one file or in two) define the same group, kind, namespace and name. Applied together, the last one replaces the other, as `kubectl apply -f` of a directory leaves it, so whatever the earlier one says is lost. gwctl does the same: the resolve, merge and render stages use only the last definition in input order, and the finding is on each earlier one, with the used one as related location. Remove one of the definitions, or rename one if both are meant.",
    ),
    // GW1xx: schema
    r(
        "GW101",
        "unknown-field",
        Error,
        "A field that the schema does not declare",
        "With strict field validation (kubectl's default) the API server rejects the object; with lax validation the field is silently dropped, so the setting has no effect. Usually a typo or a field at the wrong level.",
    ),
    r(
        "GW102",
        "required-field",
        Error,
        "A required field is missing",
        "The API server rejects the object with `Required value`.",
    ),
    r(
        "GW103",
        "invalid-type",
        Error,
        "A value has the wrong type",
        "The schema wants another JSON type here (string, integer, boolean, object, array). Quote numbers meant as strings; do not quote numbers meant as integers.",
    ),
    r(
        "GW104",
        "unsupported-value",
        Error,
        "A value outside the field's enumeration",
        "The field accepts only the listed values; matching is case-sensitive.",
    ),
    r(
        "GW105",
        "pattern-mismatch",
        Error,
        "A string does not match the field's pattern",
        "The API server checks the value against a regular expression; the message shows it.",
    ),
    r(
        "GW106",
        "string-length",
        Error,
        "A string is too short or too long",
        "The field has a minimum or maximum length.",
    ),
    r(
        "GW107",
        "number-range",
        Error,
        "A number is outside the field's range",
        "The field has a minimum or maximum value.",
    ),
    r(
        "GW108",
        "collection-size",
        Error,
        "A list or map has too few or too many entries",
        "The field has a minimum or maximum number of items or properties.",
    ),
    r(
        "GW109",
        "duplicate-item",
        Error,
        "A list has the same item or key twice",
        "The list is a set (items unique) or a map keyed by the named fields; the API server rejects duplicates.",
    ),
    r(
        "GW110",
        "yaml11-boolean",
        Warning,
        "A plain scalar that Kubernetes reads as a boolean",
        "The API server parses YAML 1.1, where unquoted `yes`, `no`, `on`, `off`, `y` and `n` are booleans, not strings. Quote the value if a string is meant; write `true` or `false` if a boolean is meant.",
    ),
    r(
        "GW111",
        "invalid-format",
        Error,
        "A string does not have the field's format",
        "The field has a format (IPv4, IPv6, date-time, ...) and the value does not parse as one.",
    ),
    r(
        "GW112",
        "validation-rule",
        Error,
        "A validation rule of the schema fails",
        "The schema's CEL rule (x-kubernetes-validations) rejects the value, with the message the API server would print.",
    ),
    r(
        "GW113",
        "rule-not-evaluated",
        Warning,
        "A validation rule could not be evaluated",
        "gwctl could not evaluate a CEL rule of the schema on this value, so the check was skipped. This is a gwctl limitation; the API server may still reject the object. A rule of a --crds CRD that exceeds --max-cel-length or --max-cel-depth is not compiled: it is reported once at its place in the CRD file, and on each object it would have checked.",
    ),
    r(
        "GW114",
        "schema-combinator",
        Error,
        "The value matches none of the allowed shapes",
        "The schema allows one of several shapes (oneOf / anyOf) or forbids one (not), and the value does not fit.",
    ),
    r(
        "GW115",
        "invalid-metadata",
        Error,
        "metadata.name, namespace, labels or annotations are invalid",
        "The API server checks object names (RFC 1123), that labels and annotations are maps of strings, and label syntax.",
    ),
    r(
        "GW116",
        "cel-syntax",
        Error,
        "A data-plane CEL expression does not parse",
        "The field holds a CEL expression that the data plane evaluates per request (transformations, access-log filters, tracing sampling, authorization rules). The position points inside the expression, at the token where parsing failed. An expression longer than --max-cel-length bytes (default 100 KiB) or nested deeper than --max-cel-depth (default 64: brackets, plus the operators, selections and ternaries chained inside each) is reported here without being parsed, at the place where the limit is passed; the help names the flag that raises it.",
    ),
    r(
        "GW117",
        "cel-unknown-name",
        Warning,
        "A data-plane CEL expression reads a variable the data plane does not provide",
        "Expressions see request, response, source, destination, jwt, apiKey, basicAuth, llm, llmRequest, mcp, backend, extauthz, extproc, metadata, env and proxy. Any other top-level name fails when evaluated, usually because of a typo; the help suggests the closest name.",
    ),
    r(
        "GW118",
        "invalid-regex",
        Error,
        "A regular expression does not compile as RE2",
        "The data plane compiles regexes with RE2, which has no backreferences, look-around, possessive or doubled repetition (`a++`, `a**`), repeat counts above 1000, the `x` flag or `\\<`/`\\>` word boundaries. The position points at the construct inside the pattern.",
    ),
    r(
        "GW119",
        "invalid-header-name",
        Error,
        "A string is not a valid HTTP header name",
        "Header names are RFC 7230 tokens: letters, digits and !#$%&'*+-.^_`|~ (HTTP/2 pseudo-headers such as :authority are accepted where a header is matched). Spaces, colons and other separators are not allowed.",
    ),
    r(
        "GW120",
        "invalid-duration",
        Error,
        "A string is not a Go duration",
        "Duration fields are decoded with Go's time.ParseDuration: a sequence of decimal numbers each with a unit (ns, us, ms, s, m, h), such as `1h30m` or `500ms`. A number without a unit (other than `0`) is rejected.",
    ),
    r(
        "GW121",
        "invalid-quantity",
        Error,
        "A string is not a Kubernetes quantity",
        "Quantity fields take a number with an optional suffix: binary (Ki, Mi, Gi, Ti, Pi, Ei), decimal (m, k, M, G, T, P, E) or an exponent (e3). Suffixes are case-sensitive: `1Mi`, not `1MI` or `1MB`.",
    ),
    r(
        "GW122",
        "invalid-jwks",
        Error,
        "An inline JSON Web Key Set is malformed",
        "The value must be JSON with a `keys` array of keys, each with `kty` and the members its type needs (RSA: n, e; EC: crv, x, y; OKP: crv, x; oct: k). A malformed set fails every token verification.",
    ),
    r(
        "GW123",
        "jwks-private-key",
        Warning,
        "An inline key set contains private or symmetric key material",
        "Tokens are verified with public keys; private members (d, p, q, dp, dq, qi) or a symmetric `oct` key in a manifest expose the signing secret to everyone who can read it. Publish only the public part, and rotate the exposed key.",
    ),
    r(
        "GW124",
        "invalid-htpasswd",
        Error,
        "An htpasswd line is malformed or its hash scheme is unknown",
        "Each line is `<user>:<hash>` with a hash in a known scheme ({SHA}, $apr1$, bcrypt $2a$/$2b$/$2y$, $5$/$6$ crypt, DES crypt). A value in no known scheme is usually a plain-text password, which never matches.",
    ),
    r(
        "GW125",
        "chart-values-conflict",
        Error,
        "Installation values combine settings the control plane does not support",
        "Checked with `--values`: for example inferenceRouting.enabled without aiGateway.enabled, deprecated in v2.1 and unsupported in v2.2.",
    ),
    r(
        "GW126",
        "xds-tls-secret-missing",
        Warning,
        "xDS TLS is enabled but its Secret is not in the inputs",
        "With controller.xds.tls.enabled both xDS servers use TLS and need a TLS Secret with the data keys tls.crt, tls.key and ca.crt in the installation namespace. Without it the control plane cannot serve configuration to the proxies. Add the Secret to the linted inputs (or ignore the finding when it is created elsewhere).",
    ),
    r(
        "GW127",
        "invalid-template",
        Error,
        "A transformation template does not compile",
        "TrafficPolicy transformation values (header `set`/`add` values, `body.value`) are Jinja templates that the proxy compiles when it loads the route configuration: an unclosed `{{`, `{%` or `{#`, an unclosed string or bracket, or block tags that do not nest (`{% if %}` without `{% endif %}`) make it reject the configuration. The controller does not compile templates: with validation level standard it accepts the policy and sends the template on, and the proxy rejects the update; with strict it has the proxy check the configuration first and replaces the routes the policy reaches with a direct response 500. So gwctl's predicted policy status stays Accepted, while `render` treats the policy as invalid. Only the syntax is checked: a name the template uses but the request does not have is empty at run time.",
    ),
    // GW2xx: references and route attachment
    r(
        "GW201",
        "parent-not-found",
        Error,
        "A route's parentRef names a Gateway or ListenerSet that is not in the inputs",
        "The route attaches to nothing through this parentRef (a controller sets no status for it at all). The message suggests a close name of the same kind in the same namespace. Severity is error when no parentRef of the route is accepted, warning when another one is.",
    ),
    r(
        "GW202",
        "no-matching-listener",
        Error,
        "A route's parentRef sectionName or port matches no listener",
        "The Gateway (or ListenerSet) exists but has no listener with the parentRef's sectionName and port, so a controller reports Accepted=False (NoMatchingParent). Fix the sectionName or port, or add the listener. Error when no parentRef of the route is accepted, else warning.",
    ),
    r(
        "GW203",
        "not-allowed-by-listeners",
        Error,
        "No listener admits the route (namespaces or kinds)",
        "The listener's allowedRoutes does not admit the route: `namespaces.from` is Same (the default) and the route is in another namespace, the Namespace's labels do not match the selector, or the route kind is not among `allowedRoutes.kinds` (by default HTTP and HTTPS listeners admit HTTPRoute and GRPCRoute, TLS TLSRoute, TCP TCPRoute, UDP UDPRoute). A controller reports Accepted=False (NotAllowedByListeners).",
    ),
    r(
        "GW204",
        "no-matching-listener-hostname",
        Error,
        "No hostname of the route intersects the listener's hostname",
        "A route with hostnames attaches only to listeners whose hostname matches one of them (a wildcard `*.example.com` matches names with more labels below it). A controller reports Accepted=False (NoMatchingListenerHostname).",
    ),
    r(
        "GW205",
        "backend-not-found",
        Error,
        "A backendRef names a Service or backend that is not in the inputs",
        "Requests to this backend fail (HTTP 500); a controller reports ResolvedRefs=False (BackendNotFound). When no object of the referenced kind is in the inputs at all, one GW212 note is given instead, unless --strict-refs is set.",
    ),
    r(
        "GW206",
        "service-port-not-found",
        Error,
        "A backendRef's port is not a port of the Service",
        "The Service exists but none of its `spec.ports` has this port, so there is no endpoint to send traffic to. Use one of the Service's ports (the message lists them).",
    ),
    r(
        "GW207",
        "invalid-backend-kind",
        Error,
        "A backendRef names a kind that is not a backend",
        "Only Services, Backends and AiGatewayBackends (and a few opaque kinds such as InferencePool) can be backends. A controller reports ResolvedRefs=False (InvalidKind).",
    ),
    r(
        "GW208",
        "ref-not-permitted",
        Error,
        "A cross-namespace reference has no ReferenceGrant",
        "A reference to an object in another namespace is allowed only when a ReferenceGrant in the target namespace permits it from the referring kind and namespace, where the controller checks one: route backendRefs, listener certificateRefs and client CA references, TrafficPolicy basicAuth `secretRef`, and a GatewayExtension's backendRef. Otherwise a controller reports RefNotPermitted. A TrafficPolicy's `extensionRef` and an AiGatewayPolicy's backendRefs need no grant (the controller checks none) and are not reported. The help text gives the grant to add.",
    ),
    r(
        "GW209",
        "ref-target-not-found",
        Error,
        "A referenced object is not in the inputs",
        "A certificateRef, secretRef, configMapRef, extensionRef, parametersRef or ListenerSet parentRef names an object that is not in the inputs. The message suggests a close name of the same kind in the same namespace. A gatewayClassName naming a class that is not in the inputs (while others are) is only a note: the Gateway's data plane is then unknown.",
    ),
    r(
        "GW210",
        "ref-missing-key",
        Error,
        "A referenced Secret or ConfigMap lacks a key the field needs",
        "The field reads specific keys: `tls.crt` and `tls.key` for certificates, `.htaccess` for AI basic authentication, `.htpasswd` (or `key`) for basicAuth, `accessKey` and `secretKey` for cloud credentials, `jwks` for a local JWKS ConfigMap.",
    ),
    r(
        "GW211",
        "extension-wrong-type",
        Error,
        "An extensionRef names a GatewayExtension that does not provide that feature",
        "An extAuth, extProc, rateLimit or jwt extensionRef needs a GatewayExtension that sets the same field; one that provides another feature is ignored for this one.",
    ),
    r(
        "GW212",
        "refs-not-checked",
        Info,
        "References to a kind with no object in the inputs were not checked",
        "When the inputs hold no object of a referenced kind at all (for example no Services), the references are assumed to point at objects created elsewhere and one note is given per kind instead of one error per reference. The note is given only when the inputs hold a Gateway (a whole configuration rather than a route or policy linted alone). --strict-refs reports each reference as missing.",
    ),
    r(
        "GW213",
        "conflicting-route-rule",
        Warning,
        "A route rule never receives traffic: another rule has the same match on the same listener and hostname",
        "When rules of HTTPRoutes attached to the same listener and hostname have the same match (path, method, headers and query parameters), the Gateway API gives the requests to one of them: the rule of the oldest route (creationTimestamp), then of the route first by `namespace/name`, and within one route the first rule. The finding is on a rule all of whose matches lose on every listener and hostname it attaches to, names the rule that wins and why; when only the name decided, the real winner depends on creation times the manifests do not fix. Change or remove one of the matches, or give the routes different hostnames.",
    ),
    // GW3xx: policy attachment and merge
    r(
        "GW301",
        "policy-target-not-found",
        Error,
        "A policy's targetRef names an object that is not in the inputs",
        "The policy does not attach through this targetRef, and no status says so: a controller writes policy status only on the targets it found. targetRefs name objects in the policy's own namespace (any namespace when the policy is in the configured globalPolicyNamespace). The message suggests a close name of the same kind in that namespace.",
    ),
    r(
        "GW302",
        "policy-section-not-found",
        Error,
        "A policy's sectionName matches nothing on its target",
        "sectionName names a Gateway or ListenerSet listener, an HTTPRoute rule (`rules[].name`), a Service port name, an AiGatewayBackend provider or an MCP target. When it matches none of them the policy does not attach to that target at all: it silently does nothing there.",
    ),
    r(
        "GW303",
        "policy-selector-selects-nothing",
        Warning,
        "A policy's targetSelector selects no object",
        "No object of the selector's kind in the policy's namespace has all the labels of matchLabels, so the selector attaches the policy to nothing. It may select objects created later; check the labels and the kind.",
    ),
    r(
        "GW304",
        "policy-attaches-to-nothing",
        Error,
        "A policy attaches to nothing at all",
        "None of the policy's targetRefs and targetSelectors resolves to an object (each is reported on its own), or it has none: the policy has no effect. A TrafficPolicy without targets takes effect only through a route's ExtensionRef filter that names it.",
    ),
    r(
        "GW305",
        "policy-wrong-data-plane",
        Warning,
        "A policy attaches to a target whose data plane ignores its kind",
        "Each policy family configures one data plane: AiGatewayPolicy the AI data plane, TrafficPolicy, HTTPListenerPolicy and ListenerPolicy the proxy-based one. A Gateway's data plane is the AI one when its GatewayClass's controllerName is the AI controller name (config `controllers.ai`), else the proxy-based one; a route or ListenerSet is served by the data planes of its parent Gateways. When none of them is the policy's, the policy attaches but configures nothing, and no status says so. Use the policy kind of the target's data plane, or attach it to a Gateway of the right class.",
    ),
    r(
        "GW306",
        "data-plane-unknown",
        Info,
        "A Gateway's data plane is unknown: the inputs hold no GatewayClass",
        "Whether a policy takes effect depends on the data plane, which the GatewayClass's controllerName decides. Without any GatewayClass in the inputs gwctl assumes policies of both families can take effect, so GW305 and GW307 are not checked for this Gateway. Given once per Gateway that a TrafficPolicy, HTTPListenerPolicy, ListenerPolicy or AiGatewayPolicy attaches to (directly or through a route). When other GatewayClasses are in the inputs, the missing one is a GW209 note instead. Add the GatewayClass to the inputs to get those checks.",
    ),
    r(
        "GW307",
        "cloud-backend-on-ai-gateway",
        Error,
        "A route served by an AI Gateway sends traffic to a cloud function Backend",
        "Cloud function Backends (`type: Cloud`) are supported only by the proxy-based data plane; the AI data plane cannot call them, so requests to this backendRef fail. Serve the route from a proxy-based Gateway, or put the function behind an HTTP endpoint the AI data plane can reach (a Service or a static AiGatewayBackend).",
    ),
    r(
        "GW308",
        "backend-config-conflict",
        Warning,
        "Two BackendConfigPolicies on one Service or Backend set the same field",
        "Policies on the same target merge per top-level field: the first-ranked policy supplies the whole field and the other's value is dropped, with no status on the field. Ranking: higher `kgateway.dev/policy-weight` annotation first, then the older creationTimestamp (a manifest without one ranks after every one that has it), then `namespace/name`. The finding is on the field that is not applied (not when both values are equal), names the policy that wins and why; when only the name decided, the real order depends on creation times the manifests do not fix. Set the field in one policy, or set the weight annotation to make the order explicit.",
    ),
    r(
        "GW309",
        "policy-field-not-for-target",
        Warning,
        "An AiGatewayPolicy sets backend.ai or backend.mcp on an AiGatewayBackend of another kind",
        "`backend.ai` configures LLM provider backends (AiGatewayBackend `ai`) and `backend.mcp` MCP backends (`mcp`); on a static, dynamic forward proxy or other backend the field configures nothing, and no status says so. The CRD's rules forbid these fields with Service targets but cannot see what kind of backend an AiGatewayBackend target is. Target the AI or MCP backend, or remove the field.",
    ),
    // GW310-GW319: merge (the effective policy)
    r(
        "GW310",
        "merge-decided-by-name",
        Warning,
        "Two policies at one level set the same field and only name order decides",
        "Within one precedence level the policy with the higher `kgateway.dev/policy-weight` wins, then the older creationTimestamp, then `namespace/name` in alphabetical order. The manifests carry neither weight nor creation time that tells the two apart, so gwctl picks by name; in a cluster the policy created first wins, which depends on apply order. Set the weight annotation on the policy that should win, or set the field in one policy only.",
    ),
    r(
        "GW311",
        "policy-overridden-everywhere",
        Warning,
        "A policy supplies no field of the effective policy anywhere",
        "Every field the policy sets is supplied by a more specific or higher-ranked policy on every place it applies to (each rule of each route, each port, each provider), so the policy has no effect. Remove it, remove the fields that override it, or raise its weight. `gwctl explain` shows which policy wins each field.",
    ),
    r(
        "GW312",
        "disable-cancels-nothing",
        Warning,
        "A `disable` turns off a feature no other policy configures there",
        "`disable: {}` turns a feature off at its level and every less specific or lower-ranked level. No policy that ranks below this one sets the field on any place where this policy applies, so the disable does nothing: a leftover, or a policy attached to the wrong target.",
    ),
    r(
        "GW313",
        "pre-and-post-routing-overlap",
        Warning,
        "PreRouting and PostRouting traffic policies configure the same feature",
        "AiGatewayPolicy traffic in phase PreRouting and in phase PostRouting are separate sets that never merge: all PreRouting settings run before routing, then all PostRouting settings after. When both configure the same feature (for example extAuth) on one route, the feature runs twice with two configurations. Configure it in one phase.",
    ),
    // GW4xx: security and practice
    r(
        "GW401",
        "tls-verification-disabled",
        Warning,
        "TLS to a backend does not verify its certificate",
        "`insecureSkipVerify` (true, `All` or `Hostname`) turns off the check that the backend is who it claims to be, so anyone on the network path can impersonate it and read or change the traffic, credentials included. Configure the backend's CA (and SNI or subject alt names) instead.",
    ),
    r(
        "GW402",
        "weak-password-hash",
        Warning,
        "An inline basic-auth user has a password hash that is fast to brute-force",
        "Everyone who can read the policy can guess these passwords offline. The proxy data plane (TrafficPolicy basicAuth) accepts only `{SHA}`, unsalted SHA-1: there the finding asks to move the htpasswd file to a Secret (secretRef) or to use JWT or external authentication. The AI data plane (AiGatewayPolicy basicAuthentication) accepts bcrypt: MD5 (`$apr1$`, `$1$`), `{SHA}` and DES crypt should be replaced with `$2y$` (`htpasswd -B`). Plain-text passwords are GW124 (an error).",
    ),
    r(
        "GW403",
        "secret-in-configmap",
        Warning,
        "A ConfigMap holds what looks like a password, token or key",
        "ConfigMaps are readable by many more principals than Secrets, are not encrypted at rest by the usual configuration, and end up in logs and support bundles. The key is named like a credential (api-key, apiKey, token, password, secret, ...) or the value looks like one (a PEM private key, an `sk-` key, a JSON Web Token, a long hex or base64 string). Move it to a Secret and rotate it if the manifest was shared. The value is never printed.",
    ),
    r(
        "GW404",
        "cors-any-origin-with-credentials",
        Warning,
        "CORS allows any origin together with credentials",
        "With `allowOrigins` containing `*` and `allowCredentials: true`, the proxy answers every origin with its own name, so any website a user visits can send requests with the user's cookies or credentials and read the responses. Checked in TrafficPolicy and AiGatewayPolicy CORS and in the HTTPRoute CORS filter. List the trusted origins instead.",
    ),
    r(
        "GW405",
        "extauth-fail-open",
        Warning,
        "External authorization lets requests through when the service fails",
        "With `failOpen: true` on a GatewayExtension's extAuth, requests are allowed without authorization while the authorization service is unavailable or erroring, so an outage (or an attacker who can cause one) turns authentication off. Leave it unset (requests are denied with statusOnError) and make the service highly available.",
    ),
    r(
        "GW406",
        "route-matches-every-host",
        Warning,
        "An HTTPRoute without hostnames has a rule that matches every request",
        "A route without `hostnames` takes every hostname its parent listeners accept; a rule without matches, or matching `PathPrefix /` without header, query or method conditions, then serves `/` on all of them, which exposes the backend (or DirectResponse) on hosts it was not meant for and shadows other routes. Reported only where the route attaches to a listener without a hostname (the related location): a listener's hostname limits the route to it, a Service parentRef (mesh) has no listener, and a delegated child route is reached only through its parent route's hostnames and matches. Set `hostnames`, narrow the match, or set the listener's hostname. Direct responses set by policies are not checked.",
    ),
    r(
        "GW407",
        "jwt-any-audience",
        Warning,
        "A JWT provider accepts tokens for any audience",
        "Without `audiences` the `aud` claim is not checked, so a token the issuer minted for any other service is accepted here too: one leaked or misused token opens every such gateway. Checked for GatewayExtension jwt providers and AiGatewayPolicy / AiGatewayBackend JWT and MCP authentication. List the audiences this gateway's tokens are issued for.",
    ),
    r(
        "GW408",
        "open-forward-proxy",
        Warning,
        "A dynamic forward proxy backend with no authentication in the inputs",
        "A dynamic forward proxy sends each request to the host the client names, so without authentication anyone can use the gateway to reach internal services or the internet under its address. Until routes and policies are resolved, the check is conservative: it reports a DynamicForwardProxy Backend or AiGatewayBackend only when no TrafficPolicy or AiGatewayPolicy in the whole input configures JWT, basic, API key or external authentication (AI-group authentication in mode Optional or Permissive does not count: it admits anonymous requests).",
    ),
];

/// The rule with this code, if any.
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} before {}",
                pair[0].code,
                pair[1].code
            );
        }
    }
}
