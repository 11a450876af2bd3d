"""What people read: pages and PDFs (present, render), the Swiss and Golden Knights report
sets (swiss, golden_knights) and email messages (mail)."""
