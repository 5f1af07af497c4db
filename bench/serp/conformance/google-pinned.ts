/**
 * Google pages without a reference parse, checked by hand once (2026-11, issue 17): the organic results of every
 * *-2021 zlurad page (desktop, mobile, no-JS), every serp-spider 2016-19 page and the NikolaiT, bisohns and abenassi
 * pages, pinned as count + first + last title. "Organic" = a web result with its own title link; not ads, top
 * stories, tweet/video/"Interesting finds" carousels, local packs, sitelinks, or "People also ask". Counted from the
 * result blocks in the page (10-result pages one by one; on the 100-result pages every heading link left out was
 * reviewed). Where serp-spider's YAML disagrees it is said below.
 */

/** [file under serp/google, organic results, first title, last title] */
export type PinnedGooglePage = [file: string, count: number, first: string, last: string];

export const GOOGLE_PINNED_PAGES: PinnedGooglePage[] = [
  ["NikolaiT-GoogleScraper/html/google__csv_tests__49386e045ced53e6.html.gz", 9, "List words containing some - More Words", "Some Words With a Mummy by Edgar Allan Poe"],
  ["NikolaiT-GoogleScraper/html/google__csv_tests__dd0d283609107f50.html.gz", 9, "List words containing some - More Words", "Some Words With a Mummy by Edgar Allan Poe"],
  ["NikolaiT-GoogleScraper/html/google__page_number_selector__google_8.html.gz", 9, "Backslash – Wikipedia", "Backslash GmbH"],
  ["NikolaiT-se-scraper/html/test_keyword_page1.html.gz", 10, "Keyword Tool (FREE) ᐈ #1 Google Keyword Planner Alternative", "BuiltIn - Robot Framework"],
  ["NikolaiT-se-scraper/html/test_keyword_page2.html.gz", 10, "Keyword Research | The Beginner's Guide to SEO - Moz", "Ad Preview and Diagnosis tool - Google Ads Help"],
  ["NikolaiT-se-scraper/html/test_keyword_page3.html.gz", 10, "The ACT Keyword Study Plan — NerdCoach", "Test Language -Introduction to Keyword Driven Testing"],
  ["abenassi-Google-Search-API/html/test_calculator.html.gz", 8, "2 + 2 = 5 - Wikipedia, la enciclopedia libre", "Barcelona empató 2-2 en su visita a Villarreal - Fútbol ..."],
  ["abenassi-Google-Search-API/html/test_standard_search.html.gz", 6, "GitHub · Build software better, together.", "GitHub | CrunchBase"],
  ["bisohns-search-engine-parser/html/google__google-Hello-synopsis__fbc376e.html.gz", 8, "Lionel Richie - Hello (Official Music Video) - YouTube", "Hello Tractor | Break Ground"],
  ["bisohns-search-engine-parser/html/google__google-synopsis__3e39d1a.html.gz", 10, "PREACH TO THE CHOIR | meaning in the Cambridge English ...", "What's the difference between 'preaching to the choir' and ..."],
  ["bisohns-search-engine-parser/html/google__google-synopsis__40fb138.html.gz", 10, "How to Bypass Server Cache When Retrieving Web Content ...", "Bypass Dynamics 365 Portals Liquid Fetchxml caching - Thrives"],
  ["bisohns-search-engine-parser/html/google__google-test-diff-synopsis__fbc376e.html.gz", 9, "Sleeping Positions in Pregnancy: Right Side vs. Left Side, More", "This Side Up: Making Decisions about Drugs"],
  ["bisohns-search-engine-parser/html/googlenews__googlenews-Hello-synopsis__fbc376e.html.gz", 10, "Watch: Beluga Whale Welcomes Little Boy With A Special \"Hello\" At Aquarium", "Say hello to a typical Southeast hay producer"],
  ["bisohns-search-engine-parser/html/googlenews__googlenews-synopsis__3e39d1a.html.gz", 10, "To save itself, journalism will need to stop preaching to the choir", "OTI to Candidates: Restore Net Neutrality Rules"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/03/asian+massage.html.gz", 10, "Asian massage techniques on table: back 1 - YouTube", "The Stubborn Cycle of Massage Parlor Trafficking ... - Columbus Monthly"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/03/plumber+london.html.gz", 10, "Pimlico Plumbers | Plumbers London Emergency Plumbers London ...", "London City Plumbers: Emergency Plumbers London"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/03/qui+est+homer+simpsons.html.gz", 10, "Homer Simpson — Wikipédia", "Homer Simpson serait mort depuis 1993, explications ! - Hitek"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/03/super+u+paris.html.gz", 9, "Supermarché Super U Paris-Paul-Bert - magasins-u.com", "Super U Paris | Catalogues et promos en cours - Tiendeo"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/07/foo+bar(page2).html.gz", 10, "FOO bar c'est quoi - Developpez.net", "foo@bar.com is a real email address | Hacker News"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/09/65b6be0a-7619-4018-97c9-989cdec53319.html.gz", 100, "Mobile-Device-Management – Wikipedia", "Sicherheit für Alle: A1 bringt neueste Mobile Device-Management ..."],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/10/agence+web+nantes.html.gz", 10, "Agence web Nantes & communication - Création sites Internet Nantes", "Agence Web Nantes | Agence de création de sites internet à Nantes"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/10/who+is+homer+simpson.html.gz", 9, "Homer Simpson - Wikipedia", "Homer Simpson est-il dans le coma depuis 22 ans? - 20 Minutes"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2018/11/acheter+kobo.html.gz", 10, "Kobo by fnac : la liseuse numérique | fnac", "Liseuse Kobo : quelle est la meilleure en 2018 ? - Liseuses.net"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2019/05/plombier+paris.html.gz", 10, "Plombier Paris - Meilleurs plombiers à Paris | 10% de réduction", "Plombier Paris | plombier 92 - 24H/ 7J - Devis gratuit - Tarifs pas chers"],
  ["serp-spider-search-engine-google/html/pages-evaluated/2019/07/cheap+video+editing+software+mac.html.gz", 9, "Best video editing software for Mac - MacPaw", "Best video editing software for Mac - Setapp"],
  ["serp-spider-search-engine-google/html/pages-evaluated/adwords/simpsons+poster.html.gz", 9, "Simpsons Poster - at AllPosters.com.au", "These \"Minimalist\" Simpsons Posters Are Absolutely Perfect"],
  ["serp-spider-search-engine-google/html/pages-evaluated/alarmas+para+casa.html.gz", 10, "Alarmas para Hogar - Securitas Direct", "Alarmas para casa | Alarmas Hogar | Alarmas Tyco | Tyco"],
  ["serp-spider-search-engine-google/html/pages-evaluated/cards-design.html.gz", 9, "Florida - Wikipedia, the free encyclopedia", "110 vakantiehuizen in Florida, USA | Interhome"],
  ["serp-spider-search-engine-google/html/pages-evaluated/flights.html.gz", 10, "Google Flights", "Flights | Book Cheap Flights and Air Tickets | Qantas"],
  ["serp-spider-search-engine-google/html/pages-evaluated/github(with-vertical-top-stories).html.gz", 7, "The world's leading software development platform · GitHub", "github - npm"],
  ["serp-spider-search-engine-google/html/pages-evaluated/github.html.gz", 6, "How people build software · GitHub", "GitHub - YouTube"],
  ["serp-spider-search-engine-google/html/pages-evaluated/how+is+homer+simpsons.html.gz", 9, "Homer Simpson - Wikipedia, the free encyclopedia", "Homer J. Simpson (@HomerJSimpson) | Twitter"],
  ["serp-spider-search-engine-google/html/pages-evaluated/inde(top-stories).html.gz", 8, "Inde — Wikipédia", "Inde: Ils retirent 150 vers des intestins d'une jeune femme de 22 ans"],
  ["serp-spider-search-engine-google/html/pages-evaluated/narendra+modi.html.gz", 10, "Home | www.narendramodi.in |", "Narendra Modi: man of the masses - New Statesman"],
  ["serp-spider-search-engine-google/html/pages-evaluated/page-with-bkgrouped-results.html.gz", 9, "Кала-Нера (Греция) 2017: все самое лучшее для туристов ...", "GRTravel | Кала Нера, Kala Nera"],
  ["serp-spider-search-engine-google/html/pages-evaluated/ransomware.html.gz", 10, "Ransomware - Wikipedia", "The Most Vulnerable Ransomware Targets Are the Institutions We ..."],
  ["serp-spider-search-engine-google/html/pages-evaluated/shop-near-paris.html.gz", 9, "Where to shop in Paris - Lonely Planet", "Vente de t-shirt, sweat, débardeur homme femme - Deparis.me - LUXE ..."],
  ["serp-spider-search-engine-google/html/pages-evaluated/simpsons(related).html.gz", 8, "The Simpsons - Wikipedia, the free encyclopedia", "The Simpsons - TV.com"],
  ["serp-spider-search-engine-google/html/pages-evaluated/simpsons+donut.html.gz", 7, "Lard Lad Donuts - Simpsons Wiki - Wikia", "Tapped Out Donut Hack – The Simpsons: Tapped Out Donuts Hack"],
  ["serp-spider-search-engine-google/html/pages-evaluated/simpsons+movie+trailer.html.gz", 10, "Simpsons Movie Trailer HD 720p - YouTube", "The Simpsons Movie teaser trailer 2 — Simpsons Crazy"],
  ["serp-spider-search-engine-google/html/pages-evaluated/simpsons.html.gz", 8, "The Simpsons - Wikipedia, the free encyclopedia", "The Simpsons - Simpsons Wiki - Wikia"],
  ["serp-spider-search-engine-google/html/pages-evaluated/simpsonsworld.html.gz", 9, "Episodes | Simpsons World on FXX", "A Review Of Simpsons World, An App For “Simpsons” Fans That Gets ..."],
  ["serp-spider-search-engine-google/html/pages-evaluated/with-DOMText.html.gz", 10, "Glasgow to Canada Flights From $584 | FlightNetwork", "Cheap flights Toronto (YYZ) Glasgow (GLA) - Airline tickets | Air Transat"],
  ["serp-spider-search-engine-google/html/pages-mobile/2017/11/buy+pen.html.gz", 10, "Pen Classics", "Quality Pens – Buy Online with Free UK Delivery | Pen Heaven"],
  // serp-spider calls the CNBC result (title link, URL, snippet, then videos) a VIDEO_GROUP: 4 CLASSICAL there.
  ["serp-spider-search-engine-google/html/pages-mobile/2017/11/donald+trump.html.gz", 5, "Donald Trump Biography: Trump Organization Hotel's Real Estate Golf ...", "Donald J. Trump - Home | Facebook"],
  ["serp-spider-search-engine-google/html/pages-mobile/2017/12/foo.html.gz", 9, "foo — Wiktionnaire", "Dave Grohl, de Nirvana aux Foo Fighters : une vie en rock"],
  ["serp-spider-search-engine-google/html/pages-mobile/2017/12/who+is+homer+simpsons.html.gz", 8, "Homer Simpson - Wikipedia", "What 11 famous voice actors — from Homer Simpson to Siri — really look like ..."],
  ["serp-spider-search-engine-google/html/pages-mobile/2018/03/foo.html.gz", 9, "Variable métasyntaxique — Wikipédia", "Foo Production | Event, équipement, shop"],
  ["serp-spider-search-engine-google/html/pages-mobile/2018/07/simpsons-episode-1.html.gz", 10, "Simpson // saison 1 // episode 1 (ancien) ...", "The Simpsons (season 1) - Wikipedia"],
  ["serp-spider-search-engine-google/html/pages-mobile/2018/08/new+construction+ct.html.gz", 10, "Connecticut New Homes & New Construction For Sale | Zillow", "Connecticut Homes for Sale - 13 New Home Communities | Toll ..."],
  ["serp-spider-search-engine-google/html/pages-mobile/2018/11/01/plombier+nantes.html.gz", 10, "Ze Plombier Nantes | Dépannage | Réparation | Installation", "Les 10 meilleurs plombiers à Nantes, Loire-Atlantique - StarOfService"],
  ["serp-spider-search-engine-google/html/pages-mobile/simpsons+donuts.html.gz", 8, "Les donuts d'Homer ~ The Simpsons - Recettes de séries", "Lard Lad Donuts | Simpsons Wiki | Fandom powered by Wikia"],
  ["serp-spider-search-engine-google/html/pages-mobile/simpsons+homer.html.gz", 8, "Homer Simpson — Wikipedia", "Les Simpson : Homer et Marge ont-ils vraiment divorce ? (spoilers ..."],
  ["serp-spider-search-engine-google/html/pages-mobile/simpsons+world.html.gz", 7, "Everything Simpsons", "A Review Of Simpsons World, An App For “Simpsons” Fans That ..."],
  ["serp-spider-search-engine-google/html/pages-raw/simpsons.html.gz", 9, "Everything Simpsons | Simpsons World", "The Simpsons - Facebook"],
  ["zlurad-serp-parser/desktop-2021/html/_com-domains.html.gz", 10, ".com Domains | Buy Your Domain Name - GoDaddy", "Buy .COM Domain - Register .com Domain Name - Shopify"],
  ["zlurad-serp-parser/desktop-2021/html/coffee.html.gz", 90, "Coffee - Wikipedia", "Metropolis Coffee: Great Coffee for Everyone!"],
  ["zlurad-serp-parser/desktop-2021/html/dell.html.gz", 9, "Dell XPS 13 Laptop | Dell USA", "Dell XPS 13 9360 13.3\" Full HD Anti-Glare InfinityEdge ..."],
  ["zlurad-serp-parser/desktop-2021/html/domain.html.gz", 8, "Website Domain Names, Online Stores & Hosting - Domain.com", "What is a domain name? - Domain Names - Beginner's Guide"],
  ["zlurad-serp-parser/desktop-2021/html/featured-snippet.html.gz", 10, "What Are Featured Snippets? And How to Get Them - Backlinko", "A Complete List of Google's Featured Snippets Types - Search ..."],
  ["zlurad-serp-parser/desktop-2021/html/google-100.html.gz", 96, "Google", "Google Shopping - Shop Online, Compare Prices & Where to ..."],
  ["zlurad-serp-parser/desktop-2021/html/google.html.gz", 8, "Google", "Sign in - Google Accounts"],
  ["zlurad-serp-parser/desktop-2021/html/hotels-london.html.gz", 10, "The Top 10 London Hotels - Travel + Leisure", "THE 10 BEST Hotels in London for 2021 (from $38) - Tripadvisor"],
  ["zlurad-serp-parser/desktop-2021/html/hotels.html.gz", 10, "Top Hotels in New York, New York - Cancel FREE on most ...", "36 Best Hotels in New York City | Condé Nast Traveler"],
  ["zlurad-serp-parser/desktop-2021/html/matrix.html.gz", 6, "The Matrix (1999) - IMDb", "The Matrix - Amazon.com"],
  ["zlurad-serp-parser/desktop-2021/html/paris.html.gz", 9, "THE 15 BEST Things to Do in Paris - TripAdvisor", "THE TOP 10 Things To Do in Paris | Attractions & Activities"],
  ["zlurad-serp-parser/mobile-2021/html/_com-domains.html.gz", 97, ".com Domains | Buy Your Domain Name - GoDaddy", ".com prices could rise for the first time in eight years - The Verge"],
  ["zlurad-serp-parser/mobile-2021/html/coffee.html.gz", 92, "Coffee - Wikipedia", "PJ's Coffee of New Orleans"],
  ["zlurad-serp-parser/mobile-2021/html/dell.html.gz", 98, "Dell XPS 13 Laptop | Dell USA", "Dell 9310 XPS 2 in 1 Convertible, 13.4 Inch FHD+ ... - Amazon.com"],
  ["zlurad-serp-parser/mobile-2021/html/featured-snippets.html.gz", 9, "What Are Featured Snippets? And How to Get Them - Backlinko", "What are featured snippets and how do I get them? - Search Engine Watch"],
  ["zlurad-serp-parser/mobile-2021/html/google-100.html.gz", 97, "Google", "Google Meet: Video Conferencing for Business | Google Workspace"],
  ["zlurad-serp-parser/mobile-2021/html/google.html.gz", 9, "Google", "Google Cloud: Cloud Computing Services"],
  ["zlurad-serp-parser/mobile-2021/html/hotels-london.html.gz", 10, "36 Best Hotels in London | Condé Nast Traveler", "Top 10 best luxury hotels in London - the Luxury Travel Expert"],
  ["zlurad-serp-parser/mobile-2021/html/hotels.html.gz", 8, "THE 10 BEST Hotels in New York City for 2021 (from $83) - Tripadvisor", "New York Hotels, Manhattan Hotels, NYC Hotels | NYC.com - Authentic Site"],
  ["zlurad-serp-parser/mobile-2021/html/matrix.html.gz", 9, "The Matrix - Wikipedia", "The Matrix (1999) - Rotten Tomatoes"],
  ["zlurad-serp-parser/mobile-2021/html/paris.html.gz", 9, "THE 15 BEST Things to Do in Paris - 2021 (with Photos) - Tripadvisor", "50 Best Things to Do in Paris – World In Paris"],
  // The reference parser crashed on this 2023 page (no reference parse): counted by hand instead.
  ["zlurad-serp-parser/nojs-2023/html/coffee-nojs.html.gz", 10, "Coffee - Wikipedia", "9 Reasons Why (the Right Amount of) Coffee Is Good for You"],
  ["zlurad-serp-parser/nojs-2021/html/coffee-nojs.html.gz", 10, "Coffee - Wikipedia", "Wholesale coffee — the mill"],
  ["zlurad-serp-parser/nojs-2021/html/domain-nojs.html.gz", 9, "Website Domains Names & Hosting | Domain.com", "Domain Names - Register Domains & more with Name.com"],
  ["zlurad-serp-parser/nojs-2021/html/google-nojs.html.gz", 6, "Google", "Google Design"],
  ["zlurad-serp-parser/nojs-2021/html/google100-nojs.html.gz", 48, "Google", "Googling the Chrome O/S - Video | ZDNet"],
  ["zlurad-serp-parser/nojs-2021/html/hotels-nojs.html.gz", 9, "Top Hotels in New York, New York - Cancel FREE on most hotels ...", "30 Best New York (NY) Hotels in 2020 | Great Savings & Reviews of ..."],
  ["zlurad-serp-parser/nojs-2021/html/matrix-nojs.html.gz", 10, "The Matrix - Wikipedia", "Cool things you didn't know about 'The Matrix' movies - Insider"],
];

/**
 * Pages that are neither result pages nor block pages (a Google home page, Google Finance's converter, the shopping
 * vertical read as a web search): ok with no organic result, flagged `parser: 'none'` — never blocked.
 */
export const GOOGLE_ORDINARY_EMPTY_PAGES = [
  'NikolaiT-se-scraper/html/index.html.gz',
  'abenassi-Google-Search-API/html/test_convert_currency.html.gz',
  'abenassi-Google-Search-API/html/test_exchange_rate.html.gz',
  'abenassi-Google-Search-API/html/test_shopping_search.html.gz',
];

/** Images pages read as a web search: read as the Images vertical (each image's source page) — count, first link. */
export const GOOGLE_IMAGES_PAGES: Array<[string, number, string]> = [
  ['abenassi-Google-Search-API/html/test_search_images.html.gz', 100, 'https://www.apple.com/es/'],
];
