//! The integration tests: one binary, one module per area. Each module was its own test binary
//! once and keeps that name, so a test reads `join::…` in the summary and
//! `cargo test --test it join::` runs one area. The modules share this process and run in
//! parallel: a test must not change process-wide state (environment, current directory, signal
//! dispositions) or rely on being alone; docs/development.md says how such tests are written.

mod common;

mod api_resources;
mod apimachinery_api;
mod apiserver_apply;
mod apiserver_auth;
mod apiserver_bad_input;
mod apiserver_crash;
mod apiserver_crds;
mod apiserver_delete_metadata;
mod apiserver_etcd;
mod apiserver_gc;
mod apiserver_kube_rs;
mod apiserver_kubectl;
mod apiserver_namespaces;
mod apiserver_protobuf;
mod apiserver_server_side_apply;
mod apiserver_tables;
mod architecture;
mod auth_rbac;
mod auth_tokens;
mod cli;
mod cluster_controller;
mod cluster_failover;
mod completion;
mod cordon_taint;
mod describe;
mod failover_etcd;
mod generated;
mod get_clusters;
mod host_init;
mod init_embedded;
mod install;
mod interpret;
mod interpreter_customization_admission;
mod interpreter_webhook;
mod join;
mod karmada_crds;
mod karmada_types;
mod kubeconfig;
mod kubectl_scenarios;
mod label_annotate;
mod members;
mod output;
mod override_policy_admission;
mod patch_delete;
mod pki;
mod policy_lifecycle;
mod promote;
mod propagation;
mod protobuf_schema;
mod pull;
mod pull_plane;
mod readme;
mod registry_fixtures;
mod resource_interpreter;
mod security_csr;
mod security_limits;
mod security_patch;
mod security_rbac;
mod security_store;
mod security_tokens;
mod simulated_member;
mod store_crash;
mod store_etcd;
mod store_model;
mod store_sqlite;
mod token;
mod unjoin;
mod upstream_crds;
mod workload_rebalancer;
