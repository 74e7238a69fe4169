import DisplayModel

/// How one round of the apply loop over heads ended, for its caller to judge.
enum ConfigurationStep {
  /// The plan sends nothing: the heads are as it would make them.
  case unchanged(RulePlan)
  /// Sent: in force when `errors` is empty, else refused or put back (the desk as it was).
  case applied(RulePlan, ApplyReport, errors: [ApplyProblem])
}
