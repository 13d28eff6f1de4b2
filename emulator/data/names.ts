import type { Country } from './phone-numbers';

// Lists are '|'-separated so they stay compact under the formatter.
const list = (s: string): readonly string[] => s.split('|');

/** Given names and family names by country, so a Polish number belongs to a Polish-sounding contact. */
export const PEOPLE: Record<Country, { first: readonly string[]; last: readonly string[] }> = {
  GB: {
    first: list(
      'Oliver|Amelia|George|Isla|Harry|Ava|Jack|Emily|Charlie|Sophie|Thomas|Grace|James|Lily|William|Freya|Henry|Chloe|Samuel|Ella',
    ),
    last: list(
      'Smith|Jones|Taylor|Brown|Williams|Wilson|Davies|Evans|Thomas|Roberts|Walker|Wright|Thompson|White|Hughes|Edwards|Green|Hall|Clarke|Bennett',
    ),
  },
  US: {
    first: list(
      'Liam|Olivia|Noah|Emma|Ethan|Mia|Mason|Harper|Logan|Abigail|Lucas|Madison|Aiden|Avery|Elijah|Scarlett|Caleb|Zoe|Wyatt|Hannah',
    ),
    last: list(
      'Johnson|Miller|Garcia|Rodriguez|Martinez|Anderson|Jackson|Harris|Martin|Lee|Perez|Lewis|Robinson|Young|King|Scott|Adams|Baker|Nelson|Carter',
    ),
  },
  DE: {
    first: list(
      'Lukas|Mia|Leon|Hannah|Finn|Lena|Jonas|Lea|Paul|Marie|Felix|Sophie|Maximilian|Anna|Elias|Laura|Tim|Julia|Moritz|Katharina',
    ),
    last: list(
      'Müller|Schmidt|Schneider|Fischer|Weber|Meyer|Wagner|Becker|Schulz|Hoffmann|Koch|Richter|Klein|Wolf|Neumann|Schwarz|Zimmermann|Braun|Krüger|Hartmann',
    ),
  },
  FR: {
    first: list(
      'Gabriel|Louise|Léo|Jade|Raphaël|Emma|Arthur|Alice|Louis|Chloé|Hugo|Léa|Jules|Manon|Adam|Camille|Lucas|Inès|Nathan|Zoé',
    ),
    last: list(
      'Martin|Bernard|Dubois|Thomas|Robert|Richard|Petit|Durand|Leroy|Moreau|Simon|Laurent|Lefebvre|Michel|Garcia|David|Bertrand|Roux|Vincent|Fournier',
    ),
  },
  ES: {
    first: list(
      'Hugo|Lucía|Martín|Sofía|Pablo|Martina|Mateo|María|Lucas|Paula|Leo|Julia|Daniel|Valeria|Alejandro|Carmen|Manuel|Elena|Álvaro|Sara',
    ),
    last: list(
      'García|Fernández|González|Rodríguez|López|Martínez|Sánchez|Pérez|Gómez|Martín|Jiménez|Ruiz|Hernández|Díaz|Moreno|Muñoz|Álvarez|Romero|Navarro|Torres',
    ),
  },
  PL: {
    first: list(
      'Jakub|Zuzanna|Antoni|Julia|Jan|Maja|Szymon|Hanna|Filip|Lena|Aleksander|Alicja|Franciszek|Oliwia|Mikołaj|Natalia|Wojciech|Zofia|Kacper|Amelia',
    ),
    last: list(
      'Nowak|Kowalski|Wiśniewski|Wójcik|Kowalczyk|Kamiński|Lewandowski|Zieliński|Szymański|Woźniak|Dąbrowski|Kozłowski|Jankowski|Mazur|Kwiatkowski|Krawczyk|Piotrowski|Grabowski|Nowakowski|Pawłowski',
    ),
  },
  NL: {
    first: list(
      'Daan|Emma|Sem|Julia|Lucas|Mila|Levi|Tess|Finn|Sophie|Milan|Zoë|Jesse|Sara|Noah|Anna|Bram|Evi|Thijs|Fleur',
    ),
    last: list(
      'de Jong|Jansen|de Vries|van den Berg|van Dijk|Bakker|Janssen|Visser|Smit|Meijer|de Boer|Mulder|de Groot|Bos|Vos|Peters|Hendriks|van Leeuwen|Dekker|Brouwer',
    ),
  },
  AU: {
    first: list(
      'Oliver|Charlotte|Jack|Amelia|William|Olivia|Noah|Isla|Thomas|Mia|James|Grace|Lucas|Ava|Henry|Chloe|Leo|Matilda|Cooper|Ruby',
    ),
    last: list(
      'Smith|Jones|Williams|Brown|Wilson|Taylor|Johnson|White|Martin|Anderson|Thompson|Nguyen|Thomas|Walker|Harris|Lee|Ryan|Robinson|Kelly|King',
    ),
  },
};

/** Company names by country, for contacts' `company`. */
export const COMPANIES: Record<Country, readonly string[]> = {
  GB: list(
    'Thames Valley Logistics|Brightside Dental|Harbour & Co Solicitors|Northgate Engineering|Kestrel Insurance|Oakfield Estates|Redbrick Software|Marlow Catering',
  ),
  US: list(
    'Bluewater Analytics|Summit Roofing LLC|Evergreen Health Partners|Lakeside Auto Group|Pioneer Freight|Crescent Marketing|Granite Peak Capital|Sunset Realty',
  ),
  DE: list(
    'Nordlicht Maschinenbau GmbH|Rheinwerk Logistik AG|Alpenblick Hotels|Sonnenschein Solar GmbH|Brückner Elektro|Spreetal Immobilien',
  ),
  FR: list(
    'Boulangerie Lemaire|Atelier Rivoli|Transports Garonne|Cabinet Delmas Avocats|Horizon Conseil|Provence Énergie',
  ),
  ES: list(
    'Construcciones Levante|Clínica Dental Sol|Viajes Mediterráneo|Bodegas Ribera|Asesoría Castilla|Logística Ibérica',
  ),
  PL: list(
    'Baltic Trans Sp. z o.o.|Mazowsze Budownictwo|Wisła Software|Kraków Meble|Poznań Logistyka|Gdańsk Marine',
  ),
  NL: list(
    'Tulp Techniek B.V.|Grachtengordel Makelaars|Polder Logistics|Zuidas Consultancy|Molenaar Bouw|Hollandse Bloemen',
  ),
  AU: list(
    'Harbourside Plumbing|Outback Solar|Coral Coast Tours|Southern Cross Freight|Eucalypt Design Studio|Bondi Fitness',
  ),
};

/** ASCII local part of an e-mail address from a person's name. */
export function emailLocalPart(first: string, last: string): string {
  const ascii = (s: string): string =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/ł/g, 'l')
      .replace(/ß/g, 'ss')
      .toLowerCase()
      .replace(/[^a-z]+/g, '');
  return `${ascii(first)}.${ascii(last)}`;
}
