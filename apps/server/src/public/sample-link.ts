/**
 * The token of the sample links a survey's Preview and Survey Admin's test e-mail carry: no
 * invitation has it (a real one is 43 characters, decision 023), so `/s/` and `/u/` say what it is.
 */
export const SAMPLE_TOKEN = 'preview-sample-link';
