//! Domains, domain instances and the BDD variable order.
//!
//! A *domain* (`V 524288`) is a finite set of integers `0..size`. A relation
//! attribute lives in an *instance* of a domain (`V0`, `V1`, ...): a block of
//! `bits(size)` BDD variables of its own. The [`Layout`] decides which BDD
//! variable holds which bit of which instance, i.e. the variable order.
//!
//! biodivine-lib-bdd orders variables by index, so a variable's index is its
//! level. Within an instance, bit 0 is the least significant bit and the most
//! significant bit sits highest in the order, as in JavaBDD. Instances joined
//! with `x` in a `.bddvarorder` are interleaved bit by bit (aligned on their
//! least significant bits); groups joined with `_` follow each other.

use biodivine_lib_bdd::BddVariable;
use std::collections::HashMap;

/// Index of a domain in a [`Layout`].
pub type DomainId = usize;
/// Index of a domain instance in a [`Layout`].
pub type InstanceId = usize;

/// A finite domain of integers `0..size`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainSpec {
    /// The domain's name, such as `V`.
    pub name: String,
    /// The number of elements.
    pub size: u64,
}

impl DomainSpec {
    /// The number of BDD variables an instance of this domain takes.
    pub fn bits(&self) -> u32 {
        bits_for(self.size)
    }
}

/// The number of bits needed to encode `0..size` (at least one).
pub fn bits_for(size: u64) -> u32 {
    if size <= 2 {
        1
    } else {
        64 - (size - 1).leading_zeros()
    }
}

/// One instance of a domain: its BDD variables, least significant bit first.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The domain this is an instance of.
    pub domain: DomainId,
    /// The instance number: 1 in `V1`.
    pub index: u32,
    /// The instance name, such as `V1`.
    pub name: String,
    /// `vars[b]` holds bit `b` (bit 0 is the least significant).
    pub vars: Vec<BddVariable>,
}

/// Errors in a variable order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A name in `.bddvarorder` is not an instance of a declared domain.
    #[error("'{0}' in the variable order is not an instance of a declared domain (expected a domain name followed by a number, such as V0)")]
    UnknownInstance(String),
    /// An instance appears twice in `.bddvarorder`.
    #[error("instance {0} appears more than once in the variable order")]
    Duplicate(String),
    /// More variables than biodivine-lib-bdd supports.
    #[error("the program needs {0} BDD variables; at most 65535 are supported")]
    TooManyVariables(usize),
}

/// One group of a variable order: instance names whose bits are interleaved.
pub type OrderGroup = Vec<String>;

/// Parses a `.bddvarorder` string such as `C0xC1_V0xV1_FD0` into groups,
/// matching instance names against the known domain names (so that a domain
/// whose name contains an `x` still parses).
pub fn parse_var_order(text: &str, domains: &[&str]) -> Result<Vec<OrderGroup>, LayoutError> {
    let mut groups = Vec::new();
    for group_text in text.split('_').filter(|g| !g.is_empty()) {
        let mut group = Vec::new();
        let bytes = group_text.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            // Longest domain name that matches here, followed by digits.
            let mut best: Option<usize> = None;
            for d in domains {
                if group_text[pos..].starts_with(d) {
                    let mut end = pos + d.len();
                    while end < bytes.len() && bytes[end].is_ascii_digit() {
                        end += 1;
                    }
                    let at_boundary = end == bytes.len() || bytes[end] == b'x';
                    if end > pos + d.len() && at_boundary && best.is_none_or(|b| end > b) {
                        best = Some(end);
                    }
                }
            }
            let Some(end) = best else {
                let rest = group_text[pos..].split('x').next().unwrap_or("");
                return Err(LayoutError::UnknownInstance(rest.to_string()));
            };
            group.push(group_text[pos..end].to_string());
            pos = end;
            if pos < bytes.len() {
                pos += 1; // the 'x'
            }
        }
        groups.push(group);
    }
    Ok(groups)
}

/// Collects the domain instances a program uses, then assigns BDD variables.
#[derive(Clone, Debug, Default)]
pub struct LayoutBuilder {
    domains: Vec<DomainSpec>,
    /// Instances in allocation order: (domain, index).
    allocated: Vec<(DomainId, u32)>,
}

impl LayoutBuilder {
    /// Starts a layout over the given domains.
    pub fn new(domains: Vec<DomainSpec>) -> Self {
        LayoutBuilder {
            domains,
            allocated: Vec::new(),
        }
    }

    /// The domains.
    pub fn domains(&self) -> &[DomainSpec] {
        &self.domains
    }

    /// Registers instance `index` of `domain` (idempotent). Allocation order is
    /// the order of first registration, as bddbddb allocates BDD domains.
    pub fn use_instance(&mut self, domain: DomainId, index: u32) {
        if !self.allocated.contains(&(domain, index)) {
            self.allocated.push((domain, index));
        }
    }

    /// Whether an instance has been registered.
    pub fn has_instance(&self, domain: DomainId, index: u32) -> bool {
        self.allocated.contains(&(domain, index))
    }

    /// The registered instance numbers of a domain, in increasing order.
    pub fn instances_of(&self, domain: DomainId) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .allocated
            .iter()
            .filter(|(d, _)| *d == domain)
            .map(|(_, i)| *i)
            .collect();
        v.sort_unstable();
        v
    }

    /// Assigns BDD variables. Instances named in `order` come first, in its
    /// order; the others follow, each domain's instances interleaved.
    pub fn build(mut self, order: Option<&[OrderGroup]>) -> Result<Layout, LayoutError> {
        let name_of =
            |d: &[DomainSpec], (dom, idx): (DomainId, u32)| format!("{}{}", d[dom].name, idx);
        let mut groups: Vec<Vec<(DomainId, u32)>> = Vec::new();
        let mut placed: Vec<(DomainId, u32)> = Vec::new();
        if let Some(order) = order {
            for group in order {
                let mut g = Vec::new();
                for name in group {
                    let inst = self.resolve_name(name)?;
                    if placed.contains(&inst) {
                        return Err(LayoutError::Duplicate(name.clone()));
                    }
                    placed.push(inst);
                    g.push(inst);
                    // Instances named only in the order still exist.
                    self.use_instance(inst.0, inst.1);
                }
                groups.push(g);
            }
        }
        // Remaining instances: one interleaved group per domain, in domain order.
        for dom in 0..self.domains.len() {
            let rest: Vec<(DomainId, u32)> = self
                .instances_of(dom)
                .into_iter()
                .map(|i| (dom, i))
                .filter(|inst| !placed.contains(inst))
                .collect();
            if !rest.is_empty() {
                groups.push(rest);
            }
        }

        let total: usize = self
            .allocated
            .iter()
            .map(|(d, _)| self.domains[*d].bits() as usize)
            .sum();
        if total > u16::MAX as usize - 1 {
            return Err(LayoutError::TooManyVariables(total));
        }

        let mut vars_of: HashMap<(DomainId, u32), Vec<BddVariable>> = HashMap::new();
        let mut next = 0usize;
        for group in &groups {
            let max_bits = group
                .iter()
                .map(|(d, _)| self.domains[*d].bits())
                .max()
                .unwrap_or(0);
            for inst in group {
                let bits = self.domains[inst.0].bits() as usize;
                vars_of.insert(*inst, vec![BddVariable::from_index(0); bits]);
            }
            for bit in (0..max_bits).rev() {
                for inst in group {
                    if bit < self.domains[inst.0].bits() {
                        vars_of.get_mut(inst).expect("registered above")[bit as usize] =
                            BddVariable::from_index(next);
                        next += 1;
                    }
                }
            }
        }

        let mut instances = Vec::new();
        let mut by_name = HashMap::new();
        let mut owner = vec![(0, 0); next];
        for &(dom, idx) in &self.allocated {
            let name = name_of(&self.domains, (dom, idx));
            let vars = vars_of
                .remove(&(dom, idx))
                .expect("every allocated instance is placed");
            for (bit, v) in vars.iter().enumerate() {
                owner[v.to_index()] = (instances.len(), bit as u32);
            }
            by_name.insert(name.clone(), instances.len());
            instances.push(Instance {
                domain: dom,
                index: idx,
                name,
                vars,
            });
        }
        Ok(Layout {
            domains: self.domains,
            instances,
            by_name,
            owner,
        })
    }

    fn resolve_name(&self, name: &str) -> Result<(DomainId, u32), LayoutError> {
        let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (dom_name, num) = name.split_at(name.len() - digits);
        let dom = self.domains.iter().position(|d| d.name == dom_name);
        match (dom, num.parse::<u32>()) {
            (Some(d), Ok(i)) => Ok((d, i)),
            _ => Err(LayoutError::UnknownInstance(name.to_string())),
        }
    }
}

/// The finished assignment of instance bits to BDD variables.
#[derive(Clone, Debug)]
pub struct Layout {
    domains: Vec<DomainSpec>,
    instances: Vec<Instance>,
    by_name: HashMap<String, InstanceId>,
    /// For each BDD variable: the instance and bit it encodes.
    owner: Vec<(InstanceId, u32)>,
}

impl Layout {
    /// The number of BDD variables.
    pub fn num_vars(&self) -> u16 {
        self.owner.len() as u16
    }

    /// The domains.
    pub fn domains(&self) -> &[DomainSpec] {
        &self.domains
    }

    /// The instances, in allocation order.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// The instances in file order, as `bddinfo` and `.bdd` files number
    /// them: allocation order, except that each domain's instances take
    /// the places its instances occupy in increasing instance number, so
    /// that the k-th occurrence of a domain in `bddinfo` is its instance k
    /// (as bddbddb reads it), whatever the variable order.
    pub fn file_order(&self) -> Vec<InstanceId> {
        let mut by_domain: Vec<Vec<InstanceId>> = vec![Vec::new(); self.domains.len()];
        for (id, inst) in self.instances.iter().enumerate() {
            by_domain[inst.domain].push(id);
        }
        for ids in &mut by_domain {
            ids.sort_by_key(|&id| self.instances[id].index);
            ids.reverse();
        }
        self.instances
            .iter()
            .map(|inst| {
                by_domain[inst.domain]
                    .pop()
                    .expect("one slot per instance of the domain")
            })
            .collect()
    }

    /// One instance.
    pub fn instance(&self, id: InstanceId) -> &Instance {
        &self.instances[id]
    }

    /// The instance with the given name (`V1`).
    pub fn instance_by_name(&self, name: &str) -> Option<InstanceId> {
        self.by_name.get(name).copied()
    }

    /// The instance `index` of `domain`, if allocated.
    pub fn find_instance(&self, domain: DomainId, index: u32) -> Option<InstanceId> {
        self.instances
            .iter()
            .position(|i| i.domain == domain && i.index == index)
    }

    /// The domain of an instance.
    pub fn domain_of(&self, id: InstanceId) -> &DomainSpec {
        &self.domains[self.instances[id].domain]
    }

    /// Which instance and bit a BDD variable encodes.
    pub fn owner(&self, var: BddVariable) -> (InstanceId, u32) {
        self.owner[var.to_index()]
    }

    /// The variable order as text, in `.bddvarorder` syntax.
    pub fn describe_order(&self) -> String {
        let mut out = String::new();
        let mut prev: Option<InstanceId> = None;
        let mut seen_in_group: Vec<InstanceId> = Vec::new();
        for &(inst, _) in &self.owner {
            if prev == Some(inst) {
                continue;
            }
            if seen_in_group.contains(&inst) {
                prev = Some(inst);
                continue;
            }
            // A new instance starts a new group unless it interleaves with the previous one.
            let interleaved = prev.is_some_and(|p| {
                let pv = &self.instances[p].vars;
                let iv = &self.instances[inst].vars;
                let (pmin, pmax) = (pv.iter().min(), pv.iter().max());
                let imin = iv.iter().min();
                matches!((pmin, pmax, imin), (Some(a), Some(b), Some(c)) if c > a && c < b)
            });
            if prev.is_some() {
                out.push(if interleaved { 'x' } else { '_' });
            }
            if !interleaved {
                seen_in_group.clear();
            }
            seen_in_group.push(inst);
            out.push_str(&self.instances[inst].name);
            prev = Some(inst);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doms() -> Vec<DomainSpec> {
        vec![
            DomainSpec {
                name: "V".into(),
                size: 8,
            },
            DomainSpec {
                name: "FD".into(),
                size: 4,
            },
        ]
    }

    #[test]
    fn bits_cover_the_domain() {
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(524288), 19);
        assert_eq!(bits_for(524289), 20);
    }

    #[test]
    fn interleaved_order_puts_msb_first() {
        let mut b = LayoutBuilder::new(doms());
        b.use_instance(0, 0);
        b.use_instance(0, 1);
        b.use_instance(1, 0);
        let order = parse_var_order("V0xV1_FD0", &["V", "FD"]).unwrap();
        let l = b.build(Some(&order)).unwrap();
        let v0 = &l.instance(0).vars;
        let v1 = &l.instance(1).vars;
        assert_eq!(v0[2].to_index(), 0);
        assert_eq!(v1[2].to_index(), 1);
        assert_eq!(v0[0].to_index(), 4);
        assert_eq!(l.instance(2).vars[1].to_index(), 6);
        assert_eq!(l.describe_order(), "V0xV1_FD0");
    }

    #[test]
    fn order_names_may_contain_x() {
        let g = parse_var_order("IDX0xIDX1_V0", &["IDX", "V"]).unwrap();
        assert_eq!(
            g,
            vec![vec!["IDX0".to_string(), "IDX1".into()], vec!["V0".into()]]
        );
        assert!(parse_var_order("Q0", &["V"]).is_err());
    }
}
