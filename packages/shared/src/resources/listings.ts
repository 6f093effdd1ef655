// Filled by the issue 21 work on this resource.
export {};
