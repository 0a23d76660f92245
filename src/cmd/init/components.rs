//! The per-component flags of `init`: every control-plane component has the same four
//! (`--<c>-image`, `--<c>-replicas`, `--<c>-priority-class`, `--<c>-extra-args`), so they are
//! generated from one table instead of written out seven times.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use karmadactl_karmada_api::wellknown::KARMADA_RELEASE;

/// A component `init` deploys, with the flag prefix upstream uses for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    /// Flag prefix, e.g. `karmada-scheduler` for `--karmada-scheduler-image`.
    pub prefix: &'static str,
    /// What the component is, for help text.
    pub title: &'static str,
    /// Karmada's own images default to `docker.io/karmada/<name>:<release>`; Kubernetes images
    /// (etcd, kube-apiserver, kube-controller-manager) default to "" and are derived from the
    /// Kubernetes image registry and tag at run time.
    pub karmada_image: Option<&'static str>,
}

pub const COMPONENTS: &[Component] = &[
    Component { prefix: "etcd", title: "etcd", karmada_image: None },
    Component { prefix: "karmada-apiserver", title: "karmada-apiserver", karmada_image: None },
    Component { prefix: "karmada-scheduler", title: "karmada-scheduler", karmada_image: Some("karmada-scheduler") },
    Component { prefix: "karmada-kube-controller-manager", title: "kube-controller-manager", karmada_image: None },
    Component {
        prefix: "karmada-controller-manager",
        title: "karmada-controller-manager",
        karmada_image: Some("karmada-controller-manager"),
    },
    Component { prefix: "karmada-webhook", title: "karmada-webhook", karmada_image: Some("karmada-webhook") },
    Component {
        prefix: "karmada-aggregated-apiserver",
        title: "karmada-aggregated-apiserver",
        karmada_image: Some("karmada-aggregated-apiserver"),
    },
];

impl Component {
    /// The image flag's default value.
    pub fn default_image(&self) -> String {
        self.karmada_image.map(|n| format!("docker.io/karmada/{n}:{KARMADA_RELEASE}")).unwrap_or_default()
    }
}

/// The values given for one component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentSettings {
    pub image: String,
    pub replicas: i32,
    pub priority_class: String,
    pub extra_args: Vec<String>,
}

/// All components' settings, in table order.
#[derive(Debug, Clone)]
pub struct ComponentFlags {
    pub settings: Vec<(Component, ComponentSettings)>,
}

impl ComponentFlags {
    pub fn get(&self, prefix: &str) -> Option<&ComponentSettings> {
        self.settings.iter().find(|(c, _)| c.prefix == prefix).map(|(_, s)| s)
    }
}

fn id(prefix: &str, what: &str) -> String {
    format!("{prefix}-{what}")
}

impl Args for ComponentFlags {
    fn augment_args(mut cmd: Command) -> Command {
        for c in COMPONENTS {
            let image_help = if c.karmada_image.is_some() {
                format!("{} image.", c.title)
            } else {
                format!("{} image (default: derived from the Kubernetes image registry and tag).", c.title)
            };
            cmd = cmd
                .arg(
                    Arg::new(id(c.prefix, "image"))
                        .long(id(c.prefix, "image"))
                        .value_name("IMAGE")
                        .default_value(c.default_image())
                        .hide_default_value(c.karmada_image.is_none())
                        .help(image_help),
                )
                .arg(
                    Arg::new(id(c.prefix, "replicas"))
                        .long(id(c.prefix, "replicas"))
                        .value_parser(clap::value_parser!(i32))
                        .value_name("N")
                        .default_value("1")
                        .help(format!("{} replica set.", c.title)),
                )
                .arg(
                    Arg::new(id(c.prefix, "priority-class"))
                        .long(id(c.prefix, "priority-class"))
                        .value_name("CLASS")
                        .default_value("system-node-critical")
                        .help(format!("The priority class name for the component {}.", c.title)),
                )
                .arg(
                    Arg::new(id(c.prefix, "extra-args"))
                        .long(id(c.prefix, "extra-args"))
                        .action(ArgAction::Append)
                        .value_delimiter(',')
                        .value_name("ARGS")
                        .help(format!(
                            "Additional command line arguments for {}, e.g. --{}-extra-args=--v=4.",
                            c.title, c.prefix
                        )),
                );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for ComponentFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let settings = COMPONENTS
            .iter()
            .map(|c| {
                let s = ComponentSettings {
                    image: m.get_one::<String>(&id(c.prefix, "image")).cloned().unwrap_or_default(),
                    replicas: m.get_one::<i32>(&id(c.prefix, "replicas")).copied().unwrap_or(1),
                    priority_class: m.get_one::<String>(&id(c.prefix, "priority-class")).cloned().unwrap_or_default(),
                    extra_args: m
                        .get_many::<String>(&id(c.prefix, "extra-args"))
                        .map(|v| v.cloned().collect())
                        .unwrap_or_default(),
                };
                (*c, s)
            })
            .collect();
        Ok(Self { settings })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
