/**
 * The companies the local financial provider knows: an unknown ticker is a 404, as with a real
 * provider. Sizes (annual revenue in USD) set the scale of the generated statements.
 */
export interface Company {
  ticker: string;
  cik: string;
  name: string;
  revenue: number;
  shares: number;
}

export const COMPANIES: readonly Company[] = [
  { ticker: 'AAPL', cik: '320193', name: 'Apple Inc.', revenue: 390e9, shares: 15.3e9 },
  { ticker: 'MSFT', cik: '789019', name: 'Microsoft Corp', revenue: 250e9, shares: 7.4e9 },
  { ticker: 'GOOGL', cik: '1652044', name: 'Alphabet Inc.', revenue: 330e9, shares: 12.3e9 },
  { ticker: 'AMZN', cik: '1018724', name: 'Amazon.com Inc.', revenue: 600e9, shares: 10.5e9 },
  { ticker: 'NVDA', cik: '1045810', name: 'NVIDIA Corp', revenue: 120e9, shares: 24.5e9 },
  { ticker: 'META', cik: '1326801', name: 'Meta Platforms Inc.', revenue: 160e9, shares: 2.5e9 },
  { ticker: 'TSLA', cik: '1318605', name: 'Tesla Inc.', revenue: 97e9, shares: 3.2e9 },
  { ticker: 'JPM', cik: '19617', name: 'JPMorgan Chase & Co.', revenue: 170e9, shares: 2.8e9 },
  { ticker: 'V', cik: '1403161', name: 'Visa Inc.', revenue: 36e9, shares: 2e9 },
  { ticker: 'KO', cik: '21344', name: 'Coca-Cola Co', revenue: 46e9, shares: 4.3e9 },
  { ticker: 'PEP', cik: '77476', name: 'PepsiCo Inc.', revenue: 92e9, shares: 1.37e9 },
  { ticker: 'NKE', cik: '320187', name: 'Nike Inc.', revenue: 51e9, shares: 1.5e9 },
  { ticker: 'INTC', cik: '50863', name: 'Intel Corp', revenue: 54e9, shares: 4.3e9 },
  { ticker: 'ORCL', cik: '1341439', name: 'Oracle Corp', revenue: 53e9, shares: 2.8e9 },
  { ticker: 'NFLX', cik: '1065280', name: 'Netflix Inc.', revenue: 39e9, shares: 0.43e9 },
  { ticker: 'DIS', cik: '1744489', name: 'Walt Disney Co', revenue: 91e9, shares: 1.8e9 },
  { ticker: 'WMT', cik: '104169', name: 'Walmart Inc.', revenue: 650e9, shares: 8e9 },
  { ticker: 'XOM', cik: '34088', name: 'Exxon Mobil Corp', revenue: 340e9, shares: 4.2e9 },
  { ticker: 'PFE', cik: '78003', name: 'Pfizer Inc.', revenue: 60e9, shares: 5.7e9 },
  { ticker: 'IBM', cik: '51143', name: 'International Business Machines Corp', revenue: 62e9, shares: 0.92e9 },
];

export function findCompany(by: { ticker?: string; cik?: string }): Company | undefined {
  if (by.ticker) return COMPANIES.find((c) => c.ticker === by.ticker!.toUpperCase());
  const cik = by.cik?.replace(/^0+/, '');
  return COMPANIES.find((c) => c.cik === cik);
}
