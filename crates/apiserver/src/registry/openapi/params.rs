//! OpenAPI query and path parameters, inline as kube writes them (kubectl reads an operation's
//! own `parameters` to decide whether the server supports `fieldValidation`).

use serde_json::{Value, json};

fn query(name: &str, ty: &str, description: &str) -> Value {
    json!({"name": name, "in": "query", "description": description, "schema": {"type": ty, "uniqueItems": true}})
}

fn path(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "path", "description": description, "required": true,
           "schema": {"type": "string", "uniqueItems": true}})
}

/// `{name}` path parameter.
pub fn name(kind: &str) -> Value {
    path("name", &format!("name of the {kind}"))
}

/// `{namespace}` path parameter.
pub fn namespace() -> Value {
    path("namespace", "object name and auth scope, such as for teams and projects")
}

/// `pretty`: pretty-print the output.
pub fn pretty() -> Value {
    query(
        "pretty",
        "string",
        "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
    )
}

fn dry_run() -> Value {
    query(
        "dryRun",
        "string",
        "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed",
    )
}

fn field_manager() -> Value {
    query(
        "fieldManager",
        "string",
        "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.",
    )
}

fn field_validation() -> Value {
    query(
        "fieldValidation",
        "string",
        "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.",
    )
}

fn force() -> Value {
    query(
        "force",
        "boolean",
        "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.",
    )
}

fn list_params() -> Vec<Value> {
    vec![
        query("allowWatchBookmarks", "boolean", "allowWatchBookmarks requests watch events with type \"BOOKMARK\"."),
        query("continue", "string", "The continue option should be set when retrieving more results from the server."),
        query(
            "fieldSelector",
            "string",
            "A selector to restrict the list of returned objects by their fields. Defaults to everything.",
        ),
        query(
            "labelSelector",
            "string",
            "A selector to restrict the list of returned objects by their labels. Defaults to everything.",
        ),
        query("limit", "integer", "limit is a maximum number of responses to return for a list call."),
        query(
            "resourceVersion",
            "string",
            "resourceVersion sets a constraint on what resource versions a request may be served from.",
        ),
        query(
            "resourceVersionMatch",
            "string",
            "resourceVersionMatch determines how resourceVersion is applied to list calls.",
        ),
        query("sendInitialEvents", "boolean", "`sendInitialEvents=true` may be set together with `watch=true`."),
        query("timeoutSeconds", "integer", "Timeout for the list/watch call."),
        query(
            "watch",
            "boolean",
            "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.",
        ),
    ]
}

fn delete_params() -> Vec<Value> {
    vec![
        dry_run(),
        query("gracePeriodSeconds", "integer", "The duration in seconds before the object should be deleted."),
        query(
            "ignoreStoreReadErrorWithClusterBreakingPotential",
            "boolean",
            "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.",
        ),
        query(
            "orphanDependents",
            "boolean",
            "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.",
        ),
        query(
            "propagationPolicy",
            "string",
            "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
        ),
    ]
}

/// Parameters of `list` (GET on a collection).
pub fn for_list() -> Vec<Value> {
    list_params()
}

/// Parameters of `create` (POST) and `replace` (PUT).
pub fn for_write() -> Vec<Value> {
    vec![dry_run(), field_manager(), field_validation()]
}

/// Parameters of `patch`.
pub fn for_patch() -> Vec<Value> {
    vec![dry_run(), field_manager(), field_validation(), force()]
}

/// Parameters of `delete` on one object.
pub fn for_delete() -> Vec<Value> {
    delete_params()
}

/// Parameters of `deletecollection`.
pub fn for_delete_collection() -> Vec<Value> {
    let mut out = delete_params();
    out.extend(list_params().into_iter().filter(|p| p["name"] != "allowWatchBookmarks" && p["name"] != "watch"));
    out.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    out
}
