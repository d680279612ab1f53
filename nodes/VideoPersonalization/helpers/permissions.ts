/**
 * Who may do what, from the service's authorization rules (docs/service-facts.md), worded for
 * the description of a 403: the user reads them when their key is refused.
 */

export const TEMPLATE_PERMISSION =
	'Stock templates are open to all users; brand templates to users of that brand, organisation admins and ' +
	'global admins; other templates to global admins.';

export const TEMPLATES_PERMISSION = 'Listing templates needs admin access.';

export const USER_PERMISSION =
	'Any user may look up their own record; looking up another user needs admin privileges.';

export const USERS_PERMISSION = 'Listing users needs admin privileges.';

export const ORGANISATION_PERMISSION =
	'Global admins may get any organisation and organisation admins their own; regular users may have no access.';

export const ORGANISATIONS_PERMISSION = 'Listing organisations needs admin access.';
