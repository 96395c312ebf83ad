//! The worked examples of the papers as test-model texts (`Model::parse` format), shared by the
//! oracle's self-tests and the engines' regression tests. Sources: Finis 2012 digest §7, Dubslaff
//! et al. 2024 digest §4.

// Finis digest §7.1: a C function as a plain Kripke structure.
pub const FIG_1_1: &str = "
props defX defY useX useY
component main
  loc decl
  loc if
  loc x5 defX
  loc y2 defY
  loc print useX
  loc term
  edge decl if
  edge if x5 y2
  edge x5 print
  edge y2 print
  edge print term
  edge term term
";

// Finis digest §7.2: a Kripke structure over {p,q,r,s}.
pub const FIG_2_2: &str = "
props p q r s
component K
  loc s0 p r
  loc s1 p r
  loc s2 p
  loc s3 q r
  loc s4 s
  edge s0 s1 s2
  edge s1 s3
  edge s2 s3
  edge s3 s3 s4
  edge s4 s3
";

// Finis digest §7.3: the C program of Fig 2.3 as an RKS; the thesis's example run.
pub const FIG_2_3: &str = "
props
component M exits m5
  loc m2
  call m2c A
  loc m3
  loc m4
  call m4c A
  loc m5
  edge m2 m2c
  edge m2c m3
  edge m3 m4
  edge m4 m4c
  edge m4c m5
component A exits a4
  loc a2
  loc a3
  call a3c B
  loc a4
  edge a2 a3
  edge a3 a3c
  edge a3c a4
component B exits b5
  loc b2
  loc b3
  loc b5
  edge b2 b3 b5
  edge b3 b5
";

// Finis digest §7.6 (Figs 3.3/3.5): mutual recursion, EG p holds at a1.
pub const FIG_3_3: &str = "
props p
component A exits a5
  loc a1 p
  call a2 B
  call a3 B
  loc a4 p
  loc a5 p
  edge a1 a2 a3
  edge a2 a5
  edge a3 a4
  edge a4 a4
component B exits b3
  loc b1 p
  call b2 A
  loc b3 p
  edge b1 b2 b3
  edge b2 b3
";

// Finis digest §7.8 (Fig 3.6): infinite recursion, a3 never reached.
pub const FIG_3_6: &str = "
props p q
component A exits a3
  loc a1 p
  call a2 A
  loc a3 q
  edge a1 a2
  edge a2 a3
";

// Finis digest §7.9 (Fig 3.7): nested EF on two mutually recursive RKSs; the witness descends
// at least five times into the recursion.
pub const FIG_3_7: &str = "
props p q
component A exits a3
  loc a1 q
  call a2 B
  loc a3
  edge a1 a2 a3
  edge a2 a3
component B exits b3
  loc b1 p
  call b2 A
  loc b3
  edge b1 b2 b3
  edge b2 b3
component C exits c3
  loc c1
  call c2 D
  loc c3 q
  edge c1 c2 c3
  edge c2 c3
component D exits d3
  loc d1
  call d2 C
  loc d3 p
  edge d1 d2 d3
  edge d2 d3
";

// Finis digest §7.10 (Figs 4.1/4.2): incremental checking order; non-recursive.
pub const FIG_4_1: &str = "
props p q
component A exits a4
  loc a1 p
  call a2 B
  loc a3 p
  loc a4 p
  edge a1 a2 a3
  edge a2 a3
  edge a3 a3
component B exits b3
  loc b1 p
  call b2 C
  loc b3 q
  edge b1 b2 b3
  edge b2 b3
component C exits c4
  loc c1 p
  loc c2 p
  call c3 D
  loc c4
  edge c1 c1 c2
  edge c2 c3
  edge c3 c4
component D exits d1
  loc d1
";

// Finis digest §7.11 (Listing 5.1): the derived flat Kripke structure, states (counter, state, ready).
pub const LISTING_5_1: &str = "
props in_state2 cr_reset
component main
  loc c0s1F cr_reset
  loc c1s2F in_state2
  loc c1s3F
  loc c2s2F in_state2
  loc c2s3F
  loc c2s1F
  loc c0s1T cr_reset
  loc c1s2T in_state2
  loc c1s3T
  loc c2s2T in_state2
  loc c2s3T
  loc c2s1T
  edge c0s1F c1s2F c1s3F
  edge c1s2F c2s2F
  edge c1s3F c2s3F c2s1F
  edge c2s2F c0s1T
  edge c2s3F c0s1T
  edge c2s1F c0s1T
  edge c0s1T c1s2T c1s3T
  edge c1s2T c2s2T
  edge c1s3T c2s3T c2s1T
  edge c2s2T c0s1F
  edge c2s3T c0s1F
  edge c2s1T c0s1F
";

// Finis digest §7.12 (Listing 5.2), with the call b2 unlabelled (erratum (i)).
pub const LISTING_5_2: &str = "
props p q x y
component foo exits fexit
  loc f1 q
  call f2 bar
  loc fexit p
  edge f1 f2
  edge f2 fexit
component bar exits bexit
  loc b1 q y
  call b2 foo
  loc b3
  call b4 foo
  loc b5
  loc bexit q x
  edge b1 b2 b4
  edge b2 b3
  edge b3 bexit
  edge b4 b5
  edge b5 bexit
";

// Used by `finis_7_13_eg_through_call_return_cycle`.
pub const EG_CALL_RETURN_CYCLE: &str = "
props p
component A exits a3
  loc a1 p
  call a2 B
  loc a3
  edge a1 a2 a3
  edge a2 a1
component B exits b1
  loc b1 p
";

// Used by `finis_7_13_fix_1_twins`.
pub const FIX_1_TWINS: &str = "
props p q
component A exits a1
  loc a0 p q
  loc a1 q
  call ac0 A
  call ac1 A
  edge a0 ac1
  edge ac1 a0
  edge ac0 a1
";

// Used by `finis_7_13_fix_2_ex_horizontal`.
pub const FIX_2_EX_HORIZONTAL: &str = "
props q
component A exits a1
  loc a0
  call ac0 B
  loc a1
  edge a0 ac0
  edge ac0 a1
component B exits b0
  loc b0 q
";

// Used by `finis_7_13_fix_3_inner_maybe`.
pub const FIX_3_INNER_MAYBE: &str = "
props q
component A exits a2
  loc a0 q
  loc a1
  loc a2 q
  call ac0 B
  call ac1 A
  edge a0 ac1 a2
  edge a1 ac0 ac1
  edge ac0 a0
  edge ac1 a1
component B exits b0
  loc b0 q
  call bc0 A
  edge bc0 b0
";

// Used by `dubslaff_ex_across_calls`.
pub const EX_ACROSS_CALLS: &str = "
props p q
component A1 exits z
  loc m
  call b A2
  loc z
  edge m b
  edge b z
component A2 exits ex
  loc en p
  loc x q
  loc ex
  edge en x
  edge x ex
";

// Used by `several_exits_continue_at_their_own_returns`.
pub const SEVERAL_EXITS: &str = "
termination loop
props p q err
component main exits fin
  loc s0
  call c parse
  loc good p
  loc handler err
  loc fin
  edge s0 c
  ret c 0 good
  ret c 1 handler
  edge good fin
  edge handler handler
component parse exits ok bad
  loc start
  loc ok q
  loc bad
  edge start ok bad
";

// Used by `stack_depth_sensitivity_of_the_exit_parity`.
pub const EXIT_PARITY: &str = "
termination loop
props red blue black
component a1 exits n4 n5
  loc n1 red
  loc n2 blue
  loc n4 black
  loc n5 blue
  call b1 a1
  call b2 a2
  edge n1 b1 b2
  ret b2 0 n2 n4
  edge n2 b2
  ret b1 0 n5
  ret b1 1 n4
component a2 exits n6
  loc n3 blue
  loc n6 blue
  edge n3 n6
";

// Used by `termination_rules`, prefixed with a termination directive.
pub const TERMINATION_BASE: &str = "
props p q
component A exits e
  loc a0 p
  loc e p
  edge a0 e
";

/// The papers' verdicts on these models: (model text, initial component, formula, expected).
pub const VERDICTS: &[(&str, &str, &str, bool)] = &[
    // §7.1
    (FIG_1_1, "main", "!E [ !defX U useX ]", false),
    (FIG_1_1, "main", "E [ !defY U useX ]", true),
    // §7.2
    (FIG_2_2, "K", "AX p", true),
    (FIG_2_2, "K", "EX p", true),
    (FIG_2_2, "K", "A [ p U q ]", true),
    (FIG_2_2, "K", "EG r", true),
    (FIG_2_2, "K", "EG p", false),
    (FIG_2_2, "K", "AF q", true),
    (FIG_2_2, "K", "AF s", false),
    (FIG_2_2, "K", "AX AX EG q", true),
    (FIG_2_2, "K", "A [ p U E [ q U s ] ]", true),
    // §7.3: no labels; the run ends in the trap.
    (FIG_2_3, "M", "AF AG !EX TRUE", false),
    (FIG_2_3, "M", "AG EX TRUE", true),
    // §7.6
    (FIG_3_3, "A", "EG p", true),
    (FIG_3_3, "A", "!EG p", false),
    // §7.8: infinite recursion
    (FIG_3_6, "A", "EG p", true),
    (FIG_3_6, "A", "E [ p U q ]", false),
    // §7.9: nested EF, φ1 … φ5 in both structures
    (FIG_3_7, "A", "EF p", true),
    (FIG_3_7, "A", "EF (q & EF p)", true),
    (FIG_3_7, "A", "EF (p & EF (q & EF p))", true),
    (FIG_3_7, "A", "EF (q & EF (p & EF (q & EF p)))", true),
    (FIG_3_7, "A", "EF (p & EF (q & EF (p & EF (q & EF p))))", true),
    (FIG_3_7, "C", "EF p", true),
    (FIG_3_7, "C", "EF (q & EF p)", true),
    (FIG_3_7, "C", "EF (p & EF (q & EF p))", true),
    (FIG_3_7, "C", "EF (q & EF (p & EF (q & EF p)))", true),
    (FIG_3_7, "C", "EF (p & EF (q & EF (p & EF (q & EF p))))", true),
    // §7.10
    (FIG_4_1, "A", "E [ EG p U q ]", true),
    // §7.11
    (LISTING_5_1, "main", "AG (in_state2 -> cr_reset)", false),
    (LISTING_5_1, "main", "E [ in_state2 U cr_reset ]", true),
    // §7.12: each SPEC with its own module as S_in
    (LISTING_5_2, "foo", "E [ q U p ]", false),
    (LISTING_5_2, "foo", "EF q", true),
    (LISTING_5_2, "foo", "EF p", false),
    (LISTING_5_2, "bar", "EF x", false),
    (LISTING_5_2, "bar", "y", true),
    // §7.13
    (EG_CALL_RETURN_CYCLE, "A", "EG p", true),
    (FIX_1_TWINS, "A", "EG E [ q U p ]", true),
    (FIX_2_EX_HORIZONTAL, "A", "EX !q", false),
    (FIX_3_INNER_MAYBE, "A", "EG EG E [ EX q U !TRUE ]", false),
    // Dubslaff §4.5: EX across a call (C-semantics: calls are transparent)
    (EX_ACROSS_CALLS, "A1", "EX EX q", true),
    (EX_ACROSS_CALLS, "A1", "EX EX EX q", false),
    (EX_ACROSS_CALLS, "A1", "EX EX EX EX !(p | q)", true),
    // several named exits
    (SEVERAL_EXITS, "main", "EX EX q", true),
    (SEVERAL_EXITS, "main", "EF (q & EX p)", true),
    (SEVERAL_EXITS, "main", "EF (q & EX err)", false),
    (SEVERAL_EXITS, "main", "EF (!q & !p & !err & EX err)", true),
    (SEVERAL_EXITS, "main", "AF (p | err)", true),
    (SEVERAL_EXITS, "main", "EF AG err", true),
    (SEVERAL_EXITS, "main", "AG (p -> AF AG !(p | q | err))", true),
    // Dubslaff Fig. 3 (part): the final exit depends on the recursion depth's parity
    (EXIT_PARITY, "a1", "EG red", true),
    (EXIT_PARITY, "a1", "EF EG black", true),
    (EXIT_PARITY, "a1", "AG (blue -> EF black)", false),
];
