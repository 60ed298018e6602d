//! A Backend of type Cloud: a cloud function invoked through the proxy's function filter, with
//! its requests signed by the request-signing filter, both on the cluster's upstream HTTP filters
//! (the cluster speaks HTTP/2 to the function service's endpoint).

use serde_json::{Value, json};

use super::super::Context;
use super::typed;
use crate::model::Object;
use crate::model::facts_settings::CloudFunction;

const DEFAULT_REGION: &str = "us-east-1";
const DEFAULT_QUALIFIER: &str = "$LATEST";

/// The cluster `name` of Backend `b`; `None` when the controller finds the Backend in error (an
/// endpoint URL without a port, a credentials Secret without its keys), as it then programs none.
pub fn cluster(ctx: &Context<'_>, b: &Object, name: &str, cloud: &CloudFunction) -> Option<Value> {
    let region = cloud.region.as_deref().unwrap_or(DEFAULT_REGION);
    let endpoint = endpoint(cloud, region)?;
    let qualifier = cloud.qualifier.as_deref().unwrap_or(DEFAULT_QUALIFIER);
    let arn = format!(
        "arn:aws:lambda:{region}:{}:function:{}:{qualifier}",
        cloud.account_id, cloud.function_name
    );
    let mut function = json!({"arn": arn});
    if cloud.asynchronous {
        function["invocationMode"] = json!("ASYNCHRONOUS");
    }
    if cloud.payload_passthrough {
        function["payloadPassthrough"] = json!(true);
    }
    let mut signing = json!({"region": region, "serviceName": "lambda"});
    if let Some(secret) = &cloud.secret {
        signing["credentialProvider"] = json!({"inlineCredential": credentials(ctx, b, secret)?});
    }
    let filters = json!([
        {
            "name": "envoy.filters.http.aws_lambda",
            "typedConfig": typed("envoy.extensions.filters.http.aws_lambda.v3.Config", function),
        },
        {
            "name": "envoy.filters.http.aws_request_signing",
            "typedConfig": typed(
                "envoy.extensions.filters.http.aws_request_signing.v3.AwsRequestSigning",
                signing,
            ),
        },
        {
            "name": "envoy.filters.http.upstream_codec",
            "typedConfig": typed("envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec", json!({})),
        },
    ]);
    let options = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";
    let mut c = json!({
        "connectTimeout": "5s",
        "dnsLookupFamily": "V4_PREFERRED",
        "loadAssignment": {
            "clusterName": name,
            "endpoints": [{"lbEndpoints": [{"endpoint": {"address": {"socketAddress": {
                "address": endpoint.host,
                "portValue": endpoint.port,
            }}}}]}],
        },
        "name": name,
        "type": "LOGICAL_DNS",
        "typedExtensionProtocolOptions": {options: typed(options, json!({
            "commonHttpProtocolOptions": {"idleTimeout": "30s"},
            "explicitHttpConfig": {"http2ProtocolOptions": {}},
            "httpFilters": filters,
        }))},
    });
    if endpoint.tls {
        c["transportSocket"] = super::upstream_tls(json!({"sni": endpoint.host}));
    }
    Some(c)
}

struct Endpoint {
    host: String,
    port: u32,
    tls: bool,
}

/// The function service's endpoint: the endpoint URL's host and port (TLS for `https`), else the
/// region's public endpoint on 443. `None` for a URL without a port, which the controller cannot
/// parse a port from.
fn endpoint(cloud: &CloudFunction, region: &str) -> Option<Endpoint> {
    let Some(url) = cloud.endpoint_url.as_deref() else {
        return Some(Endpoint {
            host: format!("lambda.{region}.amazonaws.com"),
            port: 443,
            tls: true,
        });
    };
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = host_port.rsplit_once(':')?;
    Some(Endpoint {
        host: host.to_string(),
        port: port.parse().ok()?,
        tls: scheme == "https",
    })
}

/// The inline credentials of the Secret `name` (in the Backend's namespace): its `accessKey` and
/// `secretKey` (both needed) and `sessionToken` (when there is one).
fn credentials(ctx: &Context<'_>, b: &Object, name: &str) -> Option<Value> {
    let key = |k: &str| {
        let text = crate::render::secret_text(ctx, &b.id.namespace, name, k)?;
        Some(Value::String(crate::render::secret_digest(&text)))
    };
    let mut out = json!({
        "accessKeyId": key("accessKey")?,
        "secretAccessKey": key("secretKey")?,
    });
    if let Some(token) = key("sessionToken") {
        out["sessionToken"] = token;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::lint::{LintOptions, lint_sources};
    use crate::render::{RenderOptions, render, render_options};
    use crate::source::SourceFile;

    /// A Backend `fn` in default with `cloud`, and the credentials Secret `creds`.
    fn cluster_of(cloud: &str) -> Value {
        let docs = format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1
kind: Backend
metadata: {{name: fn, namespace: default}}
spec:
  type: Cloud
  cloud:
{cloud}
---
apiVersion: v1
kind: Secret
metadata: {{name: creds, namespace: default}}
stringData: {{accessKey: AKIDEXAMPLE, secretKey: s3cr3t}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: default}}
spec:
  gatewayClassName: kgateway
  listeners: [{{name: http, protocol: HTTP, port: 80}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: fn, namespace: default}}
spec:
  parentRefs: [{{name: gw}}]
  rules: [{{backendRefs: [{{group: gateway.kgateway.dev, kind: Backend, name: fn}}]}}]
"
        );
        let run = lint_sources(
            vec![SourceFile::new(0, "test.yaml", docs)],
            &render_options(LintOptions::default()),
        );
        let rendered = render(&run, &RenderOptions::default());
        let cluster = rendered
            .clusters
            .iter()
            .find(|c| c.name == "backend_default_fn_0");
        cluster.map(|c| c.value.clone()).unwrap_or_default()
    }

    fn filters(cluster: &Value) -> &Value {
        &cluster["typedExtensionProtocolOptions"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
            ["httpFilters"]
    }

    #[test]
    fn a_function_behind_an_endpoint_url_with_secret_credentials() {
        let c = cluster_of(
            "    accountId: \"123456789012\"
    auth: {type: Secret, secretRef: {name: creds}}
    function: {functionName: hello, endpointURL: \"http://10.0.0.7:4566\", payloadTransformMode: None, invocationMode: Async}",
        );
        assert_eq!(c["type"], "LOGICAL_DNS");
        assert_eq!(
            c["loadAssignment"]["endpoints"][0]["lbEndpoints"][0]["endpoint"]["address"],
            json!({"socketAddress": {"address": "10.0.0.7", "portValue": 4566}})
        );
        assert!(c.get("transportSocket").is_none(), "plain http: {c}");
        let f = filters(&c);
        assert_eq!(
            f[0]["typedConfig"],
            json!({
                "@type": "type.googleapis.com/envoy.extensions.filters.http.aws_lambda.v3.Config",
                "arn": "arn:aws:lambda:us-east-1:123456789012:function:hello:$LATEST",
                "invocationMode": "ASYNCHRONOUS",
                "payloadPassthrough": true,
            })
        );
        let signing = &f[1]["typedConfig"];
        assert_eq!(
            (&signing["region"], &signing["serviceName"]),
            (&json!("us-east-1"), &json!("lambda"))
        );
        // Secret material is shown as its digest, never as itself.
        let inline = &signing["credentialProvider"]["inlineCredential"];
        for key in ["accessKeyId", "secretAccessKey"] {
            let shown = inline[key].as_str().unwrap_or("");
            assert!(crate::secrets::is_digest(shown), "{key}: {shown}");
        }
        assert_eq!(f[2]["name"], "envoy.filters.http.upstream_codec");
    }

    #[test]
    fn a_function_of_the_regions_public_endpoint_over_tls() {
        let c = cluster_of(
            "    accountId: \"123456789012\"
    region: eu-west-1
    function: {functionName: hello, qualifier: prod}",
        );
        let address = &c["loadAssignment"]["endpoints"][0]["lbEndpoints"][0]["endpoint"]["address"];
        assert_eq!(
            address["socketAddress"],
            json!({"address": "lambda.eu-west-1.amazonaws.com", "portValue": 443})
        );
        assert_eq!(
            c["transportSocket"]["typedConfig"]["sni"],
            "lambda.eu-west-1.amazonaws.com"
        );
        let f = filters(&c);
        assert_eq!(
            f[0]["typedConfig"]["arn"],
            "arn:aws:lambda:eu-west-1:123456789012:function:hello:prod"
        );
        assert!(f[1]["typedConfig"].get("credentialProvider").is_none());
    }

    #[test]
    fn an_endpoint_url_without_a_port_programs_no_cluster() {
        let c = cluster_of(
            "    accountId: \"123456789012\"
    function: {functionName: hello, endpointURL: \"https://lambda.internal\"}",
        );
        assert_eq!(c, Value::Null);
    }
}
