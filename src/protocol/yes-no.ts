/** The labels an MCP server's boolean property is offered as, on the wire (docs/protocol.md, rule elicitation-mapping). */
export const YES_LABEL = "Yes";
export const NO_LABEL = "No";
