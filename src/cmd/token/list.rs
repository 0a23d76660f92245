//! `token list`: the bootstrap tokens in the plane, as a table or as data.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Secret;
use karmadactl_pki::token::{SECRET_NAMESPACE, SECRET_TYPE, TokenSecret};
use kube::Api;
use kube::api::ListParams;
use serde::Serialize;

use super::TokenListArgs;
use crate::cli::Context;
use crate::membership::errors::classify;
use crate::output::{List, OutputFormat, Table, TableOptions, short_human_duration};

/// kubeadm's output object for one token (`kubeadm token list -o json`), so scripts written
/// for it read ours too: fields left out when empty, as kubeadm's `omitempty` does.
#[derive(Debug, Serialize)]
struct TokenObject {
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    kind: &'static str,
    token: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    usages: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    groups: Vec<String>,
}

pub fn run(args: TokenListArgs, ctx: &Context) -> anyhow::Result<()> {
    let format = OutputFormat::parse_json_or_yaml(args.output.as_deref().unwrap_or(""))?;
    args.karmada.resolve()?;
    let secrets = super::runtime()?.block_on(async {
        let plane = args.karmada.connect().await?;
        let api: Api<Secret> = Api::namespaced(plane.client.clone(), SECRET_NAMESPACE);
        let params = ListParams::default().fields(&format!("type={SECRET_TYPE}"));
        let listed = api.list(&params).await;
        anyhow::Ok(
            listed
                .map_err(|e| classify(&plane.target, format!("listing bootstrap tokens in {SECRET_NAMESPACE}"), e))?,
        )
    })?;
    let mut tokens = Vec::new();
    for secret in &secrets.items {
        // A malformed Secret is reported and skipped, as upstream does; the others still print.
        match TokenSecret::from_secret(secret) {
            Ok(token) => tokens.push(token),
            Err(e) => ctx.printer.warn(&format!(
                "skipping secret {SECRET_NAMESPACE}/{}: {e}",
                secret.metadata.name.as_deref().unwrap_or_default()
            )),
        }
    }
    let text = match format {
        OutputFormat::Json | OutputFormat::Yaml => {
            crate::output::to_format(format, &List::new(tokens.iter().map(object).collect()))?
        }
        _ => table(&tokens, Timestamp::now()).render(TableOptions::default()),
    };
    ctx.printer.data(&text)?;
    Ok(())
}

fn object(t: &TokenSecret) -> TokenObject {
    TokenObject {
        api_version: "output.kubeadm.k8s.io/v1alpha3",
        kind: "BootstrapToken",
        token: t.token.to_string(),
        description: t.description.clone(),
        expires: t.expiration.map(rfc3339),
        usages: t.usages.clone(),
        groups: t.groups.clone(),
    }
}

/// Upstream's columns; `<forever>`/`<never>` for a token without expiry, `<none>` for an empty
/// cell, and a TTL already passed shows as `<invalid>` (the token cleaner removes it soon).
fn table(tokens: &[TokenSecret], now: Timestamp) -> Table {
    let mut table = Table::new(["TOKEN", "TTL", "EXPIRES", "USAGES", "DESCRIPTION", "EXTRA GROUPS"]);
    let or_none = |s: String| if s.is_empty() { "<none>".to_string() } else { s };
    for t in tokens {
        let (ttl, expires) = match t.expiration {
            Some(at) => (short_human_duration(at.duration_since(now)), rfc3339(at)),
            None => ("<forever>".to_string(), "<never>".to_string()),
        };
        let mut usages = t.usages.clone();
        usages.sort();
        table.push_row([
            t.token.to_string(),
            ttl,
            expires,
            or_none(usages.join(",")),
            or_none(t.description.clone()),
            or_none(t.groups.join(",")),
        ]);
    }
    table
}

/// Go's `time.RFC3339` of a UTC time: whole seconds, `Z`.
fn rfc3339(at: Timestamp) -> String {
    Timestamp::from_second(at.as_second()).unwrap_or(at).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_pki::token::BootstrapToken;

    fn token(expiration: Option<&str>, description: &str, groups: &[&str]) -> TokenSecret {
        TokenSecret {
            token: BootstrapToken::parse("abcdef.0123456789abcdef").unwrap(),
            description: description.into(),
            expiration: expiration.map(|e| e.parse().unwrap()),
            usages: vec!["signing".into(), "authentication".into()],
            groups: groups.iter().map(|g| g.to_string()).collect(),
        }
    }

    #[test]
    fn table_rows_show_ttl_expiry_and_placeholders() {
        let now: Timestamp = "2024-01-01T00:00:00Z".parse().unwrap();
        let tokens = [
            token(Some("2024-01-01T12:00:00Z"), "for member1", &["system:bootstrappers:a"]),
            token(None, "", &[]),
            token(Some("2023-12-31T23:00:00Z"), "", &[]),
        ];
        let rows = table(&tokens, now).rows;
        assert_eq!(
            rows[0],
            [
                "abcdef.0123456789abcdef",
                "12h",
                "2024-01-01T12:00:00Z",
                "authentication,signing",
                "for member1",
                "system:bootstrappers:a"
            ]
        );
        assert_eq!(rows[1][1..], ["<forever>", "<never>", "authentication,signing", "<none>", "<none>"]);
        assert_eq!(rows[2][1], "<invalid>");
    }
}
