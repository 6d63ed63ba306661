// What a plain string property's name says about its values: `email` an address, `city` a city, and so on.
import type { Faker } from '@faker-js/faker';

/** Where a property sits: its name, its siblings' names, and the name of the property holding its object. */
export interface NameContext {
  /** The property's name (`first_name`); for an array's items, the array's name made singular. */
  name: string;
  /** The names of the properties beside it. */
  siblings: readonly string[];
  /** The property that holds its object (`author` for `author.name`), if any. */
  owner?: string;
}

/**
 * A way to draw a value for a name. A weak hint is a guess (`name` could name a person or a thing, `title` a
 * book or a problem): an example in the contract wins over it.
 */
export interface NameHint {
  draw: (faker: Faker) => string;
  weak: boolean;
  /** What part of a person it draws, so an email can be made from the names beside it. */
  role?: PersonPart;
}

/** The parts of a person an object's other fields can be made to agree with. */
export type PersonPart = 'first' | 'last' | 'full' | 'email' | 'username' | 'initials';

type Draw = NameHint['draw'];

const PERSON_OWNER =
  /(^|_)(author|owner|user|member|customer|client|person|people|contact|employee|staff|manager|assignee|reporter|reviewer|sender|recipient|guest|student|teacher|patient|driver|creator|holder|applicant|buyer|seller|passenger|player|attendee|profile)s?$/;
const PERSON_SIBLINGS =
  /^(first_name|given_name|last_name|surname|family_name|e_?mail|phone|username|avatar|birth_?date|date_of_birth|dob|gender|job_title)$/;
const COMPANY_OWNER =
  /(^|_)(compan(y|ies)|business(es)?|(organi[sz]ation|org|vendor|supplier|publisher|employer|manufacturer|brand|merchant)s?)$/;
const ADDRESS_SIBLINGS =
  /^(city|town|postal_code|post_code|postcode|zip|zip_code|zipcode|country|country_code|street)$/;

/** Names whose meaning does not depend on where they are, first match wins. */
const RULES: [RegExp, Draw, PersonPart?][] = [
  [/^(first|given|fore)_?name$/, (f) => f.person.firstName(), 'first'],
  [/^(last|family)_?name$|^surname$/, (f) => f.person.lastName(), 'last'],
  [/^middle_?name$/, (f) => f.person.middleName()],
  [/^initials$/, (f) => f.person.firstName()[0]! + f.person.lastName()[0]!, 'initials'],
  [/^(full|display|contact|author|owner|customer|holder)_?name$/, (f) => f.person.fullName(), 'full'],
  [/(^|_)e_?mail(_address)?$/, (f) => f.internet.email(), 'email'],
  [
    /(^|_)(phone|telephone|tel|mobile_number|mobile_phone|cell_phone)(_number)?$/,
    (f) => f.phone.number({ style: 'international' }),
  ],
  [/^(city|town)$|_city$/, (f) => f.location.city()],
  [/^country(_name)?$/, (f) => f.location.country()],
  [/^country_?code$/, (f) => f.location.countryCode()],
  [/^(street(_address)?|address(_?line_?1)?|address1|line_?1)$/, (f) => f.location.streetAddress()],
  [/^(address_?line_?2|address2|line_?2)$/, (f) => f.location.secondaryAddress()],
  [/^(postal|post|zip)_?code$|^(postcode|zip)$/, (f) => f.location.zipCode()],
  [/^(company|employer|organi[sz]ation|business)(_name)?$/, (f) => f.company.name()],
  [/^(job_?title|job|occupation)$/, (f) => f.person.jobTitle()],
  [/^bio(graphy)?$/, (f) => f.person.bio()],
  [/^(avatar|profile_(image|picture|photo))(_url)?$/, (f) => f.image.avatar()],
  [
    /^(image|photo|picture|thumbnail|logo|cover|icon|banner)(_url)?$|_(image|photo|picture|thumbnail|logo)(_url)?$/,
    (f) => f.image.url(),
  ],
  [/^(url|website|web_site|homepage|home_page|link|href|site)$|_(url|link|website)$/, (f) => f.internet.url()],
  [/^(username|user_name|login|handle|screen_name|nick_?name)$/, (f) => f.internet.username(), 'username'],
  [/^currency(_code)?$/, (f) => f.finance.currencyCode()],
  [/^colou?r(_name)?$/, (f) => f.color.human()],
  [/^(hex_colou?r|colou?r_hex)$/, (f) => f.color.rgb()],
  [/^(ip|ip_address|ipv4|ip_v4)$/, (f) => f.internet.ipv4()],
  [/^(domain|domain_name|hostname|host_name)$/, (f) => f.internet.domainName()],
  [/^user_agent$/, (f) => f.internet.userAgent()],
  [/^(time_?zone|tz)$/, (f) => f.location.timeZone()],
  [/^language$/, (f) => f.location.language().name],
  [/^(language_code|lang)$/, (f) => f.location.language().alpha2],
  [/^(mime|media|content)_type$/, (f) => f.system.mimeType()],
  [/^file_?name$/, (f) => f.system.fileName()],
  [/^slug$/, (f) => f.lorem.slug(3)],
  [/^iban$/, (f) => f.finance.iban()],
];

/** Names that are guesses: a contract's example wins over them. */
const WEAK_RULES: [RegExp, Draw][] = [[/^(description|summary|notes?|comments?|remarks)$/, (f) => f.lorem.sentence()]];

/**
 * The hint a property's name gives a plain string (no format, pattern or enum), if any. Names are read in
 * snake case (`firstName` as `first_name`). `name` is a person's name in a person-like object (an `author`,
 * or beside `email`), a company's in a company-like one, else a weak guess at a person's; `title` is a job
 * title for a person, else a weak guess at a book's; `state` is a state only beside an address.
 * @example nameHint({ name: 'email', siblings: [] })?.draw(faker) // 'Kyla.Hane@hotmail.com'
 */
export function nameHint({ name, siblings, owner }: NameContext): NameHint | undefined {
  const key = snakeCase(name);
  const near = siblings.map(snakeCase);
  const person =
    (owner !== undefined && PERSON_OWNER.test(snakeCase(owner))) || near.some((s) => PERSON_SIBLINGS.test(s));
  const company = owner !== undefined && COMPANY_OWNER.test(snakeCase(owner));
  if (key === 'name') {
    if (company) return { draw: (f) => f.company.name(), weak: false };
    return { draw: (f) => f.person.fullName(), weak: !person, ...(person ? { role: 'full' as const } : {}) };
  }
  if (key === 'title') {
    return person ? { draw: (f) => f.person.jobTitle(), weak: false } : { draw: (f) => f.book.title(), weak: true };
  }
  if (/^(state|province|region|county)$/.test(key)) {
    return near.some((s) => ADDRESS_SIBLINGS.test(s)) ? { draw: (f) => f.location.state(), weak: false } : undefined;
  }
  const strong = RULES.find(([test]) => test.test(key));
  if (strong) return { draw: strong[1], weak: false, ...(strong[2] ? { role: strong[2] } : {}) };
  const weak = WEAK_RULES.find(([test]) => test.test(key));
  return weak ? { draw: weak[1], weak: true } : undefined;
}

/** Whether a name (a date's, say) is a birth date's. */
export function isBirthName(name: string): boolean {
  return /^(birth_?(date|day)|date_of_birth|dob|born(_on|_at)?)$/.test(snakeCase(name));
}

/**
 * A name in lower snake case: `firstName`, `first-name` and `FirstName` all read `first_name`.
 * @example snakeCase('avatarURL') // 'avatar_url'
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s.-]+/g, '_')
    .toLowerCase();
}

/**
 * A plural noun made singular, the common English ways: an array's name for its items (`emails` → `email`,
 * `cities` → `city`), a path segment for a reference to one of its things (`addresses` → `address`).
 */
export function singular(noun: string): string {
  if (/ies$/i.test(noun)) return `${noun.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/i.test(noun)) return noun.slice(0, -2);
  return /[^s]s$/i.test(noun) ? noun.slice(0, -1) : noun;
}
